/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Record timestamps as `trace-cmd report` prints them: the guest -> host
 * time shift and TSC -> ns conversion of libtracecmd 1.3, bit for bit.
 */
#include "config.h"


#include "tscope-error.h"
#include "tscope-file-private.h"
#include "tscope-limits.h"

/* Guest → host clock (libtracecmd's timestamp_host_sync()): the samples
 * around @ts give an offset (interpolated with the INTERPOLATE flag) added
 * to (ts * scaling) >> fraction. */
#define TSYNC_FLAG_INTERPOLATE 1

static guint64
shift_calc (const TscopeFile     *f,
            const TscopeShiftCpu *s,
            guint                 lo,
            guint64               ts)
{
  guint hi = lo + 1;
  gint64 cor = s->offset[lo];
  guint64 scaled;

  /* libtracecmd computes this in gint64 and overflows (or divides
   * INT64_MIN by -1) on extreme samples; the same sums, checked, give
   * the same result wherever it has one, and no interpolation elsewhere */
  if ((f->shift_flags & TSYNC_FLAG_INTERPOLATE) && hi < s->n_samples && s->ts[hi] != s->ts[lo])
    {
      gint64 delta;
      gint64 span;
      gint64 since;
      gint64 off;
      gint64 num;

      if (!__builtin_sub_overflow ((gint64) s->ts[hi], (gint64) s->ts[lo], &delta) && delta != 0
          && !__builtin_sub_overflow ((gint64) ts, (gint64) s->ts[lo], &since)
          && !__builtin_sub_overflow (s->offset[hi], s->offset[lo], &span)
          && !__builtin_mul_overflow (since, span, &off)
          && !__builtin_add_overflow (off, delta / 2, &num)
          && !(delta == -1 && num == G_MININT64)
          && __builtin_add_overflow (s->offset[lo], num / delta, &cor))
        cor = s->offset[lo];
    }
  scaled = s->fraction[lo] < 64 ? (ts * s->scaling[lo]) >> s->fraction[lo] : 0;
  return scaled + (guint64) cor;
}

static guint64
host_sync (const TscopeFile *f,
           guint             cpu,
           guint64           ts)
{
  const TscopeShiftCpu *s;
  guint lo;
  guint hi;

  if (cpu >= f->shift_n_cpus)
    return ts;
  s = &f->shift_cpus[cpu];
  if (s->n_samples == 0)
    return ts;
  if (s->n_samples == 1)
    return ts + (guint64) s->offset[0];
  if (ts <= s->ts[0])
    return shift_calc (f, s, 0, ts);
  if (ts >= s->ts[s->n_samples - 1])
    return shift_calc (f, s, s->n_samples - 2, ts);
  /* the last sample at or before ts */
  lo = 0;
  hi = s->n_samples - 1;
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (s->ts[mid] <= ts)
        lo = mid;
      else
        hi = mid;
    }
  return shift_calc (f, s, lo, ts);
}

/* TSC -> ns exactly as libtracecmd 1.3 computes it: the multiplier is kept
 * in an int (so it sign-extends), the product wraps in 64 bits; the
 * TSC2NSEC offset is never applied. */
static inline guint64
mul_u64_u32_shr (guint64 a,
                 guint32 mult,
                 guint   shift)
{
  guint64 mul = (guint64) (gint64) (gint32) mult;
  guint64 al = a & 0xffffffffu;
  guint64 ah = a >> 32;
  guint64 ret;

  if (shift > 32)
    return (guint64) (((unsigned __int128) a * mul) >> shift);
  ret = (al * mul) >> shift;
  if (ah)
    ret += (ah * mul) << (32 - shift);
  return ret;
}

gboolean
_tscope_file_needs_ts_conversion (const TscopeFile *f)
{
  return f->has_timeshift || f->has_tsc2nsec || f->ts_offset != 0;
}

/**
 * _tscope_file_convert_ts:
 *
 * Converts a raw ring-buffer timestamp of @cpu to the nanoseconds that
 * `trace-cmd report` prints: guest → host time shift, TSC → ns, offset.
 */
gint64
_tscope_file_convert_ts (const TscopeFile *f,
                         guint             cpu,
                         guint64           raw)
{
  guint64 ts = raw;

  if (G_LIKELY (!f->has_timeshift && !f->has_tsc2nsec && f->ts_offset == 0))
    return _tscope_clamp_ts (raw);
  if (f->has_timeshift)
    ts = host_sync (f, cpu, ts);
  if (f->has_tsc2nsec)
    ts = mul_u64_u32_shr (ts, f->tsc_mult, f->tsc_shift);
  ts += (guint64) f->ts_offset;
  return _tscope_clamp_ts (ts);
}
