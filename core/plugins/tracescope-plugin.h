/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-plugin.h: the one header a Tracescope plugin includes.
 *
 * A plugin decides colours and labels and returns them; Tracescope draws.
 * It is a shared object exporting one function, TRACESCOPE_PLUGIN_ENTRY,
 * that returns its descriptor.  The descriptor's first field is the ABI
 * version the plugin was built for: Tracescope refuses any other.
 *
 * When a trace is opened with the plugin enabled, Tracescope calls init(),
 * then event() for every record of the events the plugin names, in time
 * order, then finish().  After that, span() and task() are asked while
 * views are drawn, from any thread but never at the same time as each other
 * for one trace: the plugin's data must not change after finish().
 *
 * Plain C, no GLib: build a plugin with
 *   cc -shared -fPIC $(pkg-config --cflags tracescope-plugin) -o my.so my.c
 * See docs/plugins.md.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised whenever a structure or callback below changes incompatibly. */
#define TRACESCOPE_PLUGIN_ABI_VERSION 1

/* The symbol every plugin exports:
 *   const TscopePluginDescriptor *tracescope_plugin_descriptor (void); */
#define TRACESCOPE_PLUGIN_ENTRY "tracescope_plugin_descriptor"

/* 0xRRGGBBAA */
typedef uint32_t TscopePluginColor;
#define TSCOPE_PLUGIN_RGB(r, g, b) \
  ((TscopePluginColor) (((uint32_t) (r) << 24) | ((uint32_t) (g) << 16) | ((uint32_t) (b) << 8) | 0xffu))

/* The record under the pass; valid only during the event() call. */
typedef struct TscopePluginEvent TscopePluginEvent;
/* One plugin on one trace: where marks go, where settings come from. */
typedef struct TscopePluginContext TscopePluginContext;

typedef enum
{
  TSCOPE_PLUGIN_SETTING_BOOL,
  TSCOPE_PLUGIN_SETTING_INT,
  TSCOPE_PLUGIN_SETTING_DOUBLE,
  TSCOPE_PLUGIN_SETTING_STRING,
} TscopePluginSettingType;

/* One entry of the settings form Tracescope shows for the plugin. */
typedef struct
{
  const char             *key;           /* [a-z0-9-]+ */
  const char             *label;         /* the form's label */
  TscopePluginSettingType type;
  const char             *default_value; /* as text: "true", "4096", "0.5", "kworker*" */
  const char             *description;
} TscopePluginSetting;

/* What a plugin returns for an event, a span or a task. */
typedef struct
{
  TscopePluginColor color;
  char              label[64];           /* "" for none */
} TscopePluginStyle;

typedef enum
{
  TSCOPE_PLUGIN_SPAN_RUNNING,            /* a task running on a CPU */
  TSCOPE_PLUGIN_SPAN_IRQ,                /* a hard irq handler; number: the irq */
  TSCOPE_PLUGIN_SPAN_SOFTIRQ,            /* a softirq; number: the vector */
  TSCOPE_PLUGIN_SPAN_VCPU_GUEST,         /* a vCPU thread in guest mode */
  TSCOPE_PLUGIN_SPAN_VCPU_EXIT,          /* a vCPU's exit handling; number: the exit reason */
} TscopePluginSpanKind;

/* A span the program is about to draw. */
typedef struct
{
  TscopePluginSpanKind kind;
  uint64_t             begin;            /* ns, trace clock */
  uint64_t             end;
  uint32_t             cpu;
  int32_t              pid;              /* RUNNING, VCPU_*: the task; otherwise -1 */
  const char          *comm;             /* the task's name, or NULL */
  int64_t              number;           /* IRQ, SOFTIRQ, VCPU_EXIT; otherwise -1 */
  const char          *name;             /* irq handler, softirq vector or exit reason name, or NULL */
} TscopePluginSpan;

/* A task, for the colour of its row and of its running spans. */
typedef struct
{
  int32_t     pid;
  const char *comm;
} TscopePluginTask;

/* A mark a plugin derives from events: an instant (end == begin) or a span,
 * drawn in the CPU row (cpu >= 0) and the task row (pid >= 0), and listed. */
typedef struct
{
  uint64_t          begin;
  uint64_t          end;
  int32_t           cpu;                 /* -1: none */
  int32_t           pid;                 /* -1: none */
  TscopePluginColor color;
  const char       *label;               /* copied */
} TscopePluginMark;

/* What Tracescope gives a plugin. */
typedef struct
{
  uint32_t abi_version;
  uint32_t struct_size;

  /* the record under the pass */
  uint64_t    (*event_ts)        (const TscopePluginEvent *ev);
  uint32_t    (*event_cpu)       (const TscopePluginEvent *ev);
  int32_t     (*event_pid)       (const TscopePluginEvent *ev);
  const char *(*event_name)      (const TscopePluginEvent *ev);    /* "sched_switch" */
  const char *(*event_system)    (const TscopePluginEvent *ev);    /* "sched" */
  const char *(*task_name)       (const TscopePluginEvent *ev);    /* the comm of event_pid */
  /* a field by name (common_* included): false when the event has none, or
   * it does not fit the record, or is not of that kind */
  bool        (*field_int)       (const TscopePluginEvent *ev,
                                  const char              *field,
                                  int64_t                 *value);
  bool        (*field_string)    (const TscopePluginEvent *ev,
                                  const char              *field,
                                  char                    *buf,
                                  size_t                   size);

  /* the comm of any pid in the trace, or NULL */
  const char *(*comm_of_pid)     (TscopePluginContext *ctx,
                                  int32_t              pid);
  /* the plugin's settings, as the user set them (or their defaults) */
  bool        (*setting_bool)    (TscopePluginContext *ctx,
                                  const char          *key);
  int64_t     (*setting_int)     (TscopePluginContext *ctx,
                                  const char          *key);
  double      (*setting_double)  (TscopePluginContext *ctx,
                                  const char          *key);
  const char *(*setting_string)  (TscopePluginContext *ctx,
                                  const char          *key);
  /* during the pass and finish() only */
  void        (*add_mark)        (TscopePluginContext    *ctx,
                                  const TscopePluginMark *mark);
  /* shell-style wildcard match (*, ?, [...]), as fnmatch() */
  bool        (*pattern_match)   (const char *pattern,
                                  const char *text);
} TscopePluginHost;

typedef struct
{
  uint32_t                   abi_version;   /* TRACESCOPE_PLUGIN_ABI_VERSION: first, always */
  uint32_t                   struct_size;   /* sizeof (TscopePluginDescriptor) */
  const char                *name;          /* unique, [a-z0-9-]+ */
  const char                *description;   /* one line */
  const TscopePluginSetting *settings;
  uint32_t                   n_settings;
  /* the events event() is called for: "system/event" or "event", NULL-terminated;
   * NULL or empty: none (no pass) */
  const char *const         *events;

  /* all optional */
  void *(*init)    (const TscopePluginHost *host,
                    TscopePluginContext    *ctx);
  /* true when it coloured the event (style filled) */
  bool  (*event)   (void                    *data,
                    const TscopePluginEvent *ev,
                    TscopePluginStyle       *style);
  void  (*finish)  (void *data);
  bool  (*span)    (void                   *data,
                    const TscopePluginSpan *span,
                    TscopePluginStyle      *style);
  bool  (*task)    (void                   *data,
                    const TscopePluginTask *task,
                    TscopePluginStyle      *style);
  void  (*destroy) (void *data);
  /* optional, when the events depend on the settings: called after init(),
   * its answer (NULL-terminated, owned by the plugin) replaces events */
  const char *const *(*wanted) (void *data);
} TscopePluginDescriptor;

typedef const TscopePluginDescriptor *(*TscopePluginEntry) (void);

#ifdef __cplusplus
}
#endif
