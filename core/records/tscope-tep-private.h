/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * libtraceevent set-up for a file, and the decoded layout of the events
 * the models read (field offsets resolved once, read in the hot loop).
 */
#pragma once

#include <string.h>

#include <glib.h>
#include <traceevent/event-parse.h>

#include "tscope-file-private.h"
#include "tscope-kallsyms-private.h"

G_BEGIN_DECLS

typedef enum
{
  TSCOPE_EV_OTHER = 0,
  TSCOPE_EV_SCHED_SWITCH,
  TSCOPE_EV_SCHED_WAKING,
  TSCOPE_EV_SCHED_WAKEUP,
  TSCOPE_EV_SCHED_WAKEUP_NEW,
  TSCOPE_EV_SCHED_MIGRATE,
  TSCOPE_EV_SCHED_FORK,
  TSCOPE_EV_SCHED_EXEC,
  TSCOPE_EV_SCHED_EXIT,
  TSCOPE_EV_IRQ_ENTRY,
  TSCOPE_EV_IRQ_EXIT,
  TSCOPE_EV_SOFTIRQ_ENTRY,
  TSCOPE_EV_SOFTIRQ_EXIT,
  TSCOPE_EV_SOFTIRQ_RAISE,
  TSCOPE_EV_KVM_ENTRY,
  TSCOPE_EV_KVM_EXIT,
  TSCOPE_EV_KVM_USERSPACE_EXIT,
  TSCOPE_EV_KVM_OTHER,          /* any other kvm_* event */
  TSCOPE_EV_PRINT,
  TSCOPE_EV_SYS_ENTER,          /* raw_syscalls:sys_enter */
  TSCOPE_EV_SYS_EXIT,           /* raw_syscalls:sys_exit */
  TSCOPE_EV_SYSCALL_ENTER,      /* any syscalls:sys_enter_NAME */
  TSCOPE_EV_SYSCALL_EXIT,       /* any syscalls:sys_exit_NAME */
  TSCOPE_EV_KERNEL_STACK,       /* ftrace:kernel_stack */
  TSCOPE_EV_N_KINDS
} TscopeEventKind;

/* A field as the hot loop reads it. */
typedef struct
{
  guint16 offset;
  guint8  size;
  guint8  flags;                /* TSCOPE_FIELD_* */
} TscopeField;

#define TSCOPE_FIELD_PRESENT  1
#define TSCOPE_FIELD_SIGNED   2
#define TSCOPE_FIELD_DYNAMIC  4 /* __data_loc */
#define TSCOPE_FIELD_RELATIVE 8 /* __rel_loc */

typedef enum
{
  F_PREV_COMM, F_PREV_PID, F_PREV_STATE, F_NEXT_COMM, F_NEXT_PID,   /* switch */
  F_COMM, F_PID, F_TARGET_CPU, F_ORIG_CPU, F_DEST_CPU,              /* wakeup, migrate, exit */
  F_PARENT_COMM, F_PARENT_PID, F_CHILD_COMM, F_CHILD_PID,           /* fork */
  F_OLD_PID, F_FILENAME,                                            /* exec */
  F_IRQ, F_NAME, F_VEC,                                             /* irq, softirq */
  F_VCPU_ID, F_EXIT_REASON, F_ISA, F_REASON, F_ERRNO,               /* kvm */
  F_BUF,                                                            /* print */
  F_ID, F_SYSCALL_NR,                                               /* syscalls */
  F_CALLER,                                                         /* kernel_stack */
  F_N_FIELDS
} TscopeFieldId;

typedef struct
{
  guint    n;
  guint64 *values;
  char   **names;
} TscopeSymbolTable;

typedef struct
{
  struct tep_handle *tep;
  gboolean           swap;             /* file endianness differs from host */
  guint              commit_size;      /* header_page commit field: kbuffer's long size */
  TscopeField        common_type;
  TscopeField        common_pid;
  guint              max_id;           /* largest event id + 1 */
  guint8            *kinds;            /* [max_id] TscopeEventKind */
  struct tep_event **by_id;            /* [max_id]: what tep_find_event() finds, read by any
                                        * thread (tep_find_event() caches the last one found in
                                        * the handle: two threads race on it) */
  TscopeField        fields[TSCOPE_EV_N_KINDS][F_N_FIELDS];
  guint16            min_size[TSCOPE_EV_N_KINDS]; /* bytes a record needs for its fields */
  TscopeSymbolTable  softirq_names;
  TscopeSymbolTable  vmx_reasons;
  TscopeSymbolTable  svm_reasons;
  TscopeSymbolTable  userspace_reasons;
  TscopeSymbolTable  state_flags;      /* sched_switch prev_state letters */
  guint              state_report_max; /* prev_state bit printed as "+" */
  char              *last_warning;
  gboolean           symbols_loaded;   /* kallsyms parsed (lazily: 20 ms on big files) */
  TscopeKallsyms    *kallsyms;         /* set once under symbols_lock; the printers share it */
  GBytes            *cmdlines;         /* the saved cmdlines, until parsed (lazily) */
  gint               cmdlines_parsed;  /* atomic; set under symbols_lock */
  gboolean           cmdlines_unique;  /* no pid twice in them: a pid libtraceevent has a name
                                        * for keeps that name (set before cmdlines_parsed) */
  GMutex             symbols_lock;
  GMutex             print_lock;       /* libtraceevent's printing caches the last event and
                                        * pid it looked up in the handle: one thread at a time */
  struct tep_plugin_list *plugins;
  gboolean           plugins_wanted;   /* under symbols_lock: loaded with the kallsyms */
  GPtrArray         *printers;         /* TscopePrinter: spare ones, under symbols_lock */
} TscopeTep;

/* A libtraceevent handle of a file's own, for one thread that prints many
 * records: it needs no print_lock. */
typedef struct
{
  struct tep_handle      *tep;
  struct tep_plugin_list *plugins;
  TscopeKallsyms         *kallsyms;    /* what tep resolves addresses with */
} TscopePrinter;

TscopeTep  *_tscope_tep_new               (TscopeFile         *file,
                                           GError            **error);
void        _tscope_tep_free              (TscopeTep          *tep);
const char *_tscope_symbol_lookup         (const TscopeSymbolTable *table,
                                           guint64             value);
void        _tscope_tep_route_messages    (void);
void        _tscope_tep_load_plugins      (TscopeTep          *tep);
void        _tscope_tep_ensure_cmdlines   (TscopeTep          *tep);
const char *_tscope_tep_comm               (TscopeTep          *tep,
                                           gint32              pid);
void        _tscope_tep_ensure_symbols    (TscopeTep          *tep,
                                           TscopeFile         *file);
char       *_tscope_tep_kallsyms_lines    (GBytes             *kallsyms);
const char *_tscope_tep_find_function     (TscopeTep          *tep,
                                           guint64             addr);
gboolean    _tscope_tep_plugin_lock       (struct tep_event   *event);
void        _tscope_tep_plugin_unlock     (gboolean            locked);
TscopePrinter *_tscope_tep_take_printer   (TscopeTep          *tep,
                                           TscopeFile         *file);
void        _tscope_tep_give_printer      (TscopeTep          *tep,
                                           TscopePrinter      *printer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeTep, _tscope_tep_free)

/* The format of event @id, or NULL; safe from any thread */
static inline struct tep_event *
_tscope_tep_event (const TscopeTep *t,
                   guint            id)
{
  return id < t->max_id ? t->by_id[id] : NULL;
}

static inline guint64
_tscope_read_uint (const guint8 *p,
                   guint         size,
                   gboolean      swap)
{
  switch (size)
    {
    case 1:
      return p[0];
    case 2:
      {
        guint16 v;
        memcpy (&v, p, 2);
        return swap ? GUINT16_SWAP_LE_BE (v) : v;
      }
    case 4:
      {
        guint32 v;
        memcpy (&v, p, 4);
        return swap ? GUINT32_SWAP_LE_BE (v) : v;
      }
    case 8:
      {
        guint64 v;
        memcpy (&v, p, 8);
        return swap ? GUINT64_SWAP_LE_BE (v) : v;
      }
    default:
      return 0;
    }
}

/* Reads an integer field of a record of @size bytes; 0 if absent or outside. */
static inline gint64
_tscope_field_int (const TscopeTep   *t,
                   const TscopeField *f,
                   const guint8      *data,
                   guint              size)
{
  guint64 v;

  if (G_UNLIKELY (!(f->flags & TSCOPE_FIELD_PRESENT) || (guint) f->offset + f->size > size))
    return 0;
  v = _tscope_read_uint (data + f->offset, f->size, t->swap);
  if (f->flags & TSCOPE_FIELD_SIGNED)
    {
      switch (f->size)
        {
        case 1: return (gint8) v;
        case 2: return (gint16) v;
        case 4: return (gint32) v;
        default: return (gint64) v;
        }
    }
  return (gint64) v;
}

/* The same without the size check: the model checks each record's size
 * once against min_size[kind].  An absent field has size 0 and reads 0. */
G_GNUC_UNUSED static inline __attribute__ ((always_inline)) gint64
_tscope_field_get (const TscopeTep   *t,
                   const TscopeField *f,
                   const guint8      *data)
{
  const guint8 *p = data + f->offset;

  switch (f->size)
    {
    case 4:
      {
        guint32 v;
        memcpy (&v, p, 4);
        if (t->swap)
          v = GUINT32_SWAP_LE_BE (v);
        return (f->flags & TSCOPE_FIELD_SIGNED) ? (gint64) (gint32) v : (gint64) v;
      }
    case 8:
      {
        guint64 v;
        memcpy (&v, p, 8);
        if (t->swap)
          v = GUINT64_SWAP_LE_BE (v);
        return (gint64) v;
      }
    case 2:
      {
        guint16 v;
        memcpy (&v, p, 2);
        if (t->swap)
          v = GUINT16_SWAP_LE_BE (v);
        return (f->flags & TSCOPE_FIELD_SIGNED) ? (gint64) (gint16) v : (gint64) v;
      }
    case 1:
      return (f->flags & TSCOPE_FIELD_SIGNED) ? (gint64) (gint8) p[0] : (gint64) p[0];
    default:
      return 0;
    }
}

/* A pid or CPU field: a native 4-byte int in every known format. */
G_GNUC_UNUSED static inline __attribute__ ((always_inline)) gint32
_tscope_field_i32 (const TscopeTep   *t,
                   const TscopeField *f,
                   const guint8      *data)
{
  if (G_LIKELY (f->size == 4 && !t->swap))
    {
      gint32 v;

      memcpy (&v, data + f->offset, 4);
      return v;
    }
  return (gint32) _tscope_field_get (t, f, data);
}

const char *_tscope_field_string (const TscopeTep   *t,
                                  const TscopeField *f,
                                  const guint8      *data,
                                  guint              size,
                                  gsize             *len);

G_END_DECLS
