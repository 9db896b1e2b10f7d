/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The timeline's shared state, for tscope-timeline{,-draw,-input}.c.
 */
#pragma once

#include "tscope-calls.h"
#include "tscope-timeline.h"
#include "tscope-vcpu.h"

G_BEGIN_DECLS

#define TSCOPE_MINIMAP_H   36
#define TSCOPE_RULER_H     24
#define TSCOPE_MARKBAR_H   16
#define TSCOPE_HEADER_H    (TSCOPE_MINIMAP_H + TSCOPE_RULER_H + TSCOPE_MARKBAR_H)
#define TSCOPE_LABEL_W_MIN 200
#define TSCOPE_LABEL_W_MAX 360
#define TSCOPE_CPU_ROW_H   26
#define TSCOPE_TASK_ROW_H  18
#define TSCOPE_GROUP_ROW_H 20
#define TSCOPE_SOURCE_ROW_H 24
#define TSCOPE_CALL_LANE_H 13       /* one depth of function calls under a task row */
#define TSCOPE_CALL_LANES_MAX 32

typedef enum
{
  ROW_CPU,
  ROW_GROUP,
  ROW_TASK,
  ROW_SOURCE,               /* a source's header, when more than one is open */
} RowKind;

/* 40 bytes: a trace can have 800,000 task rows */
typedef struct
{
  char    *label;           /* NULL: a task row's, made when first needed (_tscope_timeline_row_label) */
  gint64   weight;          /* run time: the sort key */
  guint32  id;              /* CPU, task, group index, or source index */
  guint    group;           /* task rows: their group, G_MAXUINT if none */
  guint    source;          /* the source's index in the document */
  guint    pin_order;
  guint16  call_lanes;      /* task rows: depths of function calls drawn under it (TSCOPE_CALL_LANES_MAX) */
  guint8   kind;            /* RowKind */
  guint8   hidden;
  guint8   pinned;
} Row;

G_STATIC_ASSERT (TSCOPE_CALL_LANES_MAX <= G_MAXUINT16);
G_STATIC_ASSERT (sizeof (Row) <= 40);

typedef struct
{
  guint    source;
  guint32  leader;          /* the task whose children these are */
  gboolean collapsed;
  guint    first;           /* its tasks' row indices: group_rows[first, first + n_rows), leader first */
  guint    n_rows;
  gint64   weight;
  gint     vm;              /* a virtual machine's vCPU threads: its index, else -1 */
} Group;

struct _TscopeTimeline
{
  GtkWidget      parent_instance;

  /* owned */
  TscopeSession *session;
  GtkAdjustment *vadjustment;
  GArray        *rows;              /* Row */
  GArray        *groups;            /* Group */
  GArray        *visible;           /* guint: row indices in display order */
  GArray        *visible_y;         /* int: their y offsets in the row area */
  GArray        *order;             /* guint: every row in its base order (reorderable) */
  GArray        *built_order;       /* guint: the order as built, before rows were moved */
  GHashTable    *label_layouts;     /* row index -> PangoLayout */
  GHashTable    *guest_index;       /* source << 32 | vCPU task -> TscopeVcpuTimeline */
  GHashTable    *syscall_index;     /* source << 32 | task -> GArray of its syscall spans' indices */
  GHashTable    *marked_index;      /* source << 32 | task -> GArray of its marked blocked intervals */
  GHashTable    *calls_pending;     /* traces whose function calls a worker is reading (refs) */
  GArray        *rows_source_ids;   /* guint: the ids of the sources the rows were built for */
  GArray        *group_rows;        /* guint: the row indices of every group's tasks, group by group */
  GHashTable    *collapsed_sources; /* ids of the sources whose rows are folded away */
  GtkGesture    *drag;
  GtkGesture    *click;
  GtkGesture    *zoom_gesture;
  GtkEventController *motion;

  /* children, owned by the widget tree */
  GtkWidget     *row_popover;       /* one for the timeline's life: see _tscope_timeline_row_menu() */

  gulong         notify_handler;
  int            rows_height;       /* total height of the visible rows */
  gboolean       any_pinned;        /* a row has pinned set */
  int            label_w;           /* the label column, wide enough for the rows' labels */
  guint          pin_counter;
  gboolean       hide_irq_band;     /* the "show-irq-band" setting, off */
  gboolean       hide_ticks;        /* the "show-event-ticks" setting, off */
  gboolean       flat_tasks;        /* the "task-rows" setting: "flat", not grouped by parent */

  /* pointer and gestures */
  double         pointer_x;
  double         pointer_y;
  gboolean       pointer_inside;
  double         drag_start_x;
  double         drag_start_y;
  double         drag_last_dy;
  TscopeSpan     drag_view;         /* the view when a pan started */
  int            drag_mode;         /* DRAG_* */
  TscopeTime     drag_time;         /* where a range selection started */
  double         zoom_scale;
  guint          menu_row;          /* the row a context menu was opened on */
  gboolean       pending_scroll;    /* scroll to this row once allocated */
  guint          pending_source;
  TscopeRowKind  pending_kind;
  guint32        pending_id;

  /* draw-time caches */
  gpointer       cells;             /* TscopeViewCell[n], reused between rows */
  guint          n_cells;
  gint64         last_frame_us;
  guint8        *minimap;           /* busy columns of the whole span, per CPU of every source */
  GskRenderNode *frozen;            /* the last frame, shown once the file changed */
  GdkTexture    *hatch;             /* the Runnable stripes' tile */
  guint          minimap_width;
  guint          frames;
};

enum
{
  DRAG_NONE,
  DRAG_PAN,
  DRAG_SELECT,
  DRAG_MINIMAP,
};

/* tscope-timeline.c */
void        _tscope_timeline_layout_rows   (TscopeTimeline *self);
int         _tscope_timeline_plot_width    (TscopeTimeline *self);
gboolean    _tscope_timeline_is_live       (TscopeTimeline *self);
int         _tscope_timeline_row_at        (TscopeTimeline *self,
                                            double          y);
int         _tscope_timeline_row_height    (const Row      *row);
int         _tscope_timeline_label_x       (const Row      *row);
const char *_tscope_timeline_row_label     (TscopeTimeline *self,
                                            Row            *row);
const Row  *_tscope_timeline_visible_row   (TscopeTimeline *self,
                                            guint           i);
TscopeTrace *_tscope_timeline_row_trace    (TscopeTimeline *self,
                                            const Row      *row);
TscopeSpan  _tscope_timeline_row_view      (TscopeTimeline *self,
                                            const Row      *row);
gboolean    _tscope_timeline_row_is        (const Row      *row,
                                            guint           source,
                                            TscopeRowKind   kind,
                                            guint32         id);
gboolean    _tscope_timeline_row_key       (const Row      *row,
                                            TscopeRowKind  *kind);
TscopeTime  _tscope_timeline_snap          (TscopeTimeline *self,
                                            const Row      *row,
                                            TscopeTime      t);
void        _tscope_timeline_row_menu      (TscopeTimeline *self,
                                            guint           visible_index,
                                            double          x,
                                            double          y);

guint       _tscope_timeline_source_id     (TscopeTimeline *self,
                                            guint           source);

/* tscope-timeline-draw.c */
TscopeVcpuTimeline *_tscope_timeline_vcpu_timeline (TscopeTimeline *self,
                                                    guint           source,
                                                    guint32         task);
void        _tscope_timeline_snapshot      (GtkWidget      *widget,
                                            GtkSnapshot    *snapshot);
char       *_tscope_timeline_tooltip_text  (TscopeTimeline *self,
                                            double          x,
                                            double          y);

/* tscope-timeline-calls.c */
void        _tscope_timeline_calls_update  (TscopeTimeline *self);
gboolean    _tscope_timeline_calls_pending (TscopeTimeline *self);
void        _tscope_timeline_draw_calls    (TscopeTimeline *self,
                                            GtkSnapshot    *snapshot,
                                            const Row      *row,
                                            float           y);
TscopeCalls *_tscope_timeline_call_at      (TscopeTimeline *self,
                                            const Row      *row,
                                            TscopeTime      t,
                                            double          lane_y,
                                            guint          *call);
char       *_tscope_timeline_call_tooltip  (TscopeTimeline *self,
                                            const Row      *row,
                                            TscopeTime      t,
                                            double          lane_y);

/* tscope-timeline-input.c */
void        _tscope_timeline_init_input    (TscopeTimeline *self);
void        _tscope_timeline_class_init_input (GtkWidgetClass *widget_class);

G_END_DECLS
