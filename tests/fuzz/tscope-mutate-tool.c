/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tscope-mutate-tool: the trace.dat mutator on the command line, to
 * reproduce one mutation of the hostile-input test, make seed corpora for
 * the fuzzer, and see what the mutator sees in a file.
 */
#include "config.h"

#include <stdlib.h>

#include <glib.h>

#include "tscope-mutate.h"

static GBytes *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, &error))
    {
      g_printerr ("tscope-mutate-tool: %s\n", error->message);
      exit (1);
    }
  return g_bytes_new_take (contents, len);
}

static void
write_file (const char *path,
            GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  if (!g_file_set_contents (path, data, (gssize) len, &error))
    {
      g_printerr ("tscope-mutate-tool: %s\n", error->message);
      exit (1);
    }
}

/* Seeds for the fuzzer: each trace shrunk to 1, 2 and 6 chunks per CPU,
 * and the 1-chunk version cut at a few places. */
static int
make_corpus (const char  *dir,
             char       **files,
             int          n_files)
{
  static const guint chunks[] = { 1, 2, 6 };

  g_mkdir_with_parents (dir, 0755);
  for (int i = 0; i < n_files; i++)
    {
      g_autoptr(GBytes) in = read_file (files[i]);
      g_autofree char *base = g_path_get_basename (files[i]);

      if (g_bytes_get_size (in) <= (256u << 10))
        {
          g_autofree char *out = g_strdup_printf ("%s/%s", dir, base);

          write_file (out, in);
        }
      for (guint c = 0; c < G_N_ELEMENTS (chunks); c++)
        {
          g_autoptr(GBytes) small = tscope_mutate_shrink (in, chunks[c]);
          g_autofree char *out = g_strdup_printf ("%s/%s.shrunk%u", dir, base, chunks[c]);

          if (small == NULL)
            continue;
          write_file (out, small);
          for (guint k = 1; c == 0 && k <= 3; k++)
            {
              g_autoptr(GBytes) cut = g_bytes_new_from_bytes (small, 0, g_bytes_get_size (small) * k / 4);
              g_autofree char *name = g_strdup_printf ("%s/%s.shrunk1.cut%u", dir, base, k);

              write_file (name, cut);
            }
        }
    }
  return 0;
}

int
main (int    argc,
      char **argv)
{
  if (argc >= 5 && g_str_equal (argv[1], "mutate"))
    {
      g_autoptr(GBytes) in = read_file (argv[3]);
      g_autofree char *what = NULL;
      guint32 seed = (guint32) g_ascii_strtoull (argv[2], NULL, 0);
      gsize max = argc > 5 ? g_ascii_strtoull (argv[5], NULL, 0) : 0;
      g_autoptr(GBytes) out = tscope_mutate_bytes (in, seed, max, &what);

      write_file (argv[4], out);
      g_print ("%s\n", what);
      return 0;
    }
  if (argc == 5 && g_str_equal (argv[1], "shrink"))
    {
      g_autoptr(GBytes) in = read_file (argv[3]);
      g_autoptr(GBytes) out = tscope_mutate_shrink (in, (guint) g_ascii_strtoull (argv[2], NULL, 10));

      if (out == NULL)
        {
          g_printerr ("tscope-mutate-tool: %s: cannot parse it\n", argv[3]);
          return 1;
        }
      write_file (argv[4], out);
      return 0;
    }
  if (argc == 3 && g_str_equal (argv[1], "describe"))
    {
      g_autoptr(GBytes) in = read_file (argv[2]);
      g_autofree char *s = tscope_mutate_describe (in);

      g_print ("%s", s);
      return 0;
    }
  if (argc >= 3 && g_str_equal (argv[1], "corpus"))
    return make_corpus (argv[2], argv + 3, argc - 3);
  g_printerr ("usage: tscope-mutate-tool mutate SEED IN OUT [MAX_SIZE]\n"
              "       tscope-mutate-tool shrink CHUNKS IN OUT\n"
              "       tscope-mutate-tool describe IN\n"
              "       tscope-mutate-tool corpus DIR FILE...\n");
  return 2;
}
