/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Decompressing blocks and chunks: zstd (with a context per reader) and
 * zlib, which Debian's libtracecmd 1.3 cannot read.
 */
#include "config.h"

#include <zlib.h>
#include <zstd.h>

#include "tscope-error.h"
#include "tscope-file-private.h"
#include "tscope-limits.h"

const char *
_tscope_codec_name (TscopeCodec codec)
{
  switch (codec)
    {
    case TSCOPE_CODEC_ZSTD:
      return "zstd";
    case TSCOPE_CODEC_ZLIB:
      return "zlib";
    case TSCOPE_CODEC_NONE:
    default:
      return "none";
    }
}

/**
 * _tscope_file_check_block:
 * @block: the compressed bytes, or their first @avail (a zstd frame's header)
 * @avail: the bytes of @block at hand (at most @csize)
 * @csize: the compressed size
 * @usize: what the file says they inflate to
 * @limit: the most a block of this kind may hold
 * @what: the block, for the message ("CPU 3 chunk 12")
 *
 * Checks a block's claimed size against @limit and against what its codec
 * can reach from @csize bytes, before anything is allocated for it; a zstd
 * frame that states its size must fit in @usize.
 */
gboolean
_tscope_file_check_block (const TscopeFile  *file,
                          const guint8      *block,
                          guint32            avail,
                          guint32            csize,
                          guint64            usize,
                          guint64            limit,
                          const char        *what,
                          GError           **error)
{
  guint64 ratio = file->codec == TSCOPE_CODEC_ZLIB ? TSCOPE_LIMIT_RATIO_ZLIB : TSCOPE_LIMIT_RATIO_ZSTD;

  if (usize > limit)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
                   "%s: file is corrupt: %s claims %" G_GUINT64_FORMAT " MiB uncompressed, more than the %"
                   G_GUINT64_FORMAT " MiB a block may hold", file->path, what, usize >> 20, limit >> 20);
      return FALSE;
    }
  if (usize > (guint64) csize * ratio)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
                   "%s: file is corrupt: %s claims %" G_GUINT64_FORMAT " bytes from %u compressed,"
                   " more than %s can reach", file->path, what, usize, csize, _tscope_codec_name (file->codec));
      return FALSE;
    }
  if (file->codec == TSCOPE_CODEC_ZSTD && csize > 0)
    {
      unsigned long long declared = ZSTD_getFrameContentSize (block, MIN (avail, csize));

      if (declared == ZSTD_CONTENTSIZE_ERROR
          || (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared > usize))
        {
          g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
                       "%s: file is corrupt: %s %s", file->path, what,
                       declared == ZSTD_CONTENTSIZE_ERROR ? "is not a zstd frame"
                                                          : "holds more than it claims");
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- the decompression budget (TSCOPE_LIMIT_INFLATE_BUDGET) ---- */

static guint64 inflate_held;

/**
 * _tscope_inflate_reserve:
 * @bytes: decompression buffers about to be allocated
 *
 * Counts @bytes against the process-wide decompression budget.
 *
 * Returns: %FALSE, with the file's one-line error, when they do not fit.
 */
gboolean
_tscope_inflate_reserve (const TscopeFile  *file,
                         guint64            bytes,
                         GError           **error)
{
  guint64 held = __atomic_load_n (&inflate_held, __ATOMIC_RELAXED);

  do
    {
      if (bytes > TSCOPE_LIMIT_INFLATE_BUDGET || held > TSCOPE_LIMIT_INFLATE_BUDGET - bytes)
        {
          g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_UNSUPPORTED,
                       "%s: decompressing it needs %" G_GUINT64_FORMAT " MiB of buffers at once, more than"
                       " the %" G_GUINT64_FORMAT " MiB allowed", file->path, (held + bytes) >> 20,
                       TSCOPE_LIMIT_INFLATE_BUDGET >> 20);
          return FALSE;
        }
    }
  while (!__atomic_compare_exchange_n (&inflate_held, &held, held + bytes, TRUE,
                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return TRUE;
}

void
_tscope_inflate_release (guint64 bytes)
{
  __atomic_fetch_sub (&inflate_held, bytes, __ATOMIC_RELAXED);
}

/**
 * _tscope_file_decompress:
 *
 * @ctx: (inout) (nullable): the caller's decompression context, made on
 *   first use (free it with _tscope_file_free_codec_context())
 *
 * Inflates one block of the file's codec into @dst, which must hold exactly
 * @usize bytes.
 */
gboolean
_tscope_file_decompress (const TscopeFile  *file,
                         void             **ctx,
                         const guint8      *block,
                         guint32            csize,
                         guint8            *dst,
                         guint32            usize,
                         GError           **error)
{
  if (file->codec == TSCOPE_CODEC_ZSTD)
    {
      size_t r;

      /* a context per reader: ZSTD_decompress() would make one per chunk */
      if (ctx != NULL && *ctx == NULL)
        *ctx = ZSTD_createDCtx ();
      r = ctx != NULL && *ctx != NULL ? ZSTD_decompressDCtx (*ctx, dst, usize, block, csize)
                                      : ZSTD_decompress (dst, usize, block, csize);

      if (ZSTD_isError (r) || r != usize)
        {
          g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
                       "%s: file is corrupt: a zstd block does not decompress (%s)",
                       file->path, ZSTD_isError (r) ? ZSTD_getErrorName (r) : "wrong size");
          return FALSE;
        }
      return TRUE;
    }
  if (file->codec == TSCOPE_CODEC_ZLIB)
    {
      uLongf dlen = usize;
      int r = uncompress (dst, &dlen, block, csize);

      if (r != Z_OK || dlen != usize)
        {
          g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
                       "%s: file is corrupt: a zlib block does not decompress (%s)",
                       file->path, r != Z_OK ? zError (r) : "wrong size");
          return FALSE;
        }
      return TRUE;
    }
  g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
               "%s: file is corrupt: compressed data in an uncompressed file", file->path);
  return FALSE;
}

void
_tscope_file_free_codec_context (const TscopeFile *file,
                                 void             *ctx)
{
  if (ctx != NULL && file->codec == TSCOPE_CODEC_ZSTD)
    ZSTD_freeDCtx (ctx);
}
