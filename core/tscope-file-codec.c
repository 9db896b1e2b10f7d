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
