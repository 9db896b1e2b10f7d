/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Bad input: a clear one-line error naming the file, never a crash, a hang
 * or an empty result.  Files from tests/data, plus some made here.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include <glib/gstdio.h>

#include "tscope-error.h"
#include "tscope-trace.h"
#include "tscope-test-util.h"

static void
expect_error (const char *path,
              gint        code,
              const char *words)
{
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace = tscope_trace_load (path, NULL, &error);

  g_assert_null (trace);
  g_assert_error (error, TSCOPE_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_null (strchr (error->message, '\n'));
  g_assert_nonnull (strstr (error->message, words));
}

static void
test_shared_bad_files (void)
{
  static const struct {
    const char *name;
    gint code;
    const char *words;
  } cases[] = {
    { "empty", TSCOPE_ERROR_EMPTY, "empty file" },
    { "garbage", TSCOPE_ERROR_NOT_A_TRACE, "not a trace-cmd" },
    { "not-a-trace", TSCOPE_ERROR_NOT_A_TRACE, "not a trace-cmd" },
    { "truncated", TSCOPE_ERROR_TRUNCATED, "truncated" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = tscope_test_data (cases[i].name, ".dat");

      expect_error (path, cases[i].code, cases[i].words);
    }
}

static void
test_missing_and_directory (void)
{
  /* in a directory of its own, empty: nothing else on the machine
   * decides whether the file is there */
  g_autofree char *dir = g_dir_make_tmp ("tscope-missing-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "no", "trace.dat", NULL);

  g_assert_nonnull (dir);
  expect_error (missing, TSCOPE_ERROR_NOT_FOUND, "no such file");
  expect_error (TSCOPE_TEST_DATA, TSCOPE_ERROR_IS_DIRECTORY, "is a directory");
  g_rmdir (dir);
}

/* Root reads anything: drop CAP_DAC_OVERRIDE/READ_SEARCH in a child. */
static void
drop_dac_caps (void)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[2];

  if (syscall (SYS_capget, &hdr, data) != 0)
    return;
  for (guint i = 0; i < 2; i++)
    {
      data[i].effective &= ~((1u << (CAP_DAC_OVERRIDE % 32)) | (1u << (CAP_DAC_READ_SEARCH % 32)));
      data[i].permitted = data[i].effective;
    }
  syscall (SYS_capset, &hdr, data);
}

static void
test_unreadable (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *dir = g_dir_make_tmp ("tscope-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "secret.dat", NULL);
      g_autofree char *src = tscope_test_data ("sched-v6", ".dat");
      g_autofree char *contents = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
      g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));
      g_assert_cmpint (g_chmod (path, 0), ==, 0);
      drop_dac_caps ();
      expect_error (path, TSCOPE_ERROR_PERMISSION, "ermission denied");
      g_unlink (path);
      g_rmdir (dir);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* Cut sched.dat (v7, zstd) and sched-v6.dat at every byte of their first
 * 4 KiB (the headers) and at many places after: every prefix loads or fails
 * with a one-line error; none crashes. */
static void
test_every_cut (void)
{
  const char *names[] = { "sched-v6", "sched", "public-kvm-host-zlib" };
  g_autofree char *dir = g_dir_make_tmp ("tscope-XXXXXX", NULL);

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autofree char *src = tscope_test_data (names[n], ".dat");
      g_autofree char *contents = NULL;
      gsize len;
      guint failed = 0;

      g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
      for (gsize cut = 0; cut < len; cut += cut < 4096 ? 1 : 1 + len / 97)
        {
          g_autofree char *path = g_build_filename (dir, "cut.dat", NULL);
          g_autoptr(GError) error = NULL;
          TscopeTrace *trace;

          g_assert_true (g_file_set_contents (path, contents, (gssize) cut, NULL));
          trace = tscope_trace_load (path, NULL, &error);
          if (trace == NULL)
            {
              g_assert_nonnull (error);
              g_assert_true (g_str_has_prefix (error->message, path));
              g_assert_null (strchr (error->message, '\n'));
              failed++;
            }
          g_clear_object (&trace);
          g_unlink (path);
        }
      g_assert_cmpuint (failed, >, 4096 + 90);
    }
  g_rmdir (dir);
}

/* Flip bytes of the metadata and the data: errors or a load, never a crash. */
static void
test_corrupted_bytes (void)
{
  g_autofree char *src = tscope_test_data ("sched-v6", ".dat");
  g_autofree char *dir = g_dir_make_tmp ("tscope-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "flip.dat", NULL);
  g_autofree char *contents = NULL;
  gsize len;
  GRand *rand = g_rand_new_with_seed (20261122);

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  for (guint round = 0; round < 60; round++)
    {
      g_autofree char *copy = g_memdup2 (contents, len);
      g_autoptr(GError) error = NULL;
      TscopeTrace *trace;

      for (guint k = 0; k < 16; k++)
        {
          /* half the flips in the headers, half in the ring-buffer pages */
          gsize at = round % 2 ? g_rand_int_range (rand, 0, 30000) : g_rand_int_range (rand, 0, (gint32) len);

          copy[at] ^= (char) g_rand_int_range (rand, 1, 256);
        }
      g_assert_true (g_file_set_contents (path, copy, (gssize) len, NULL));
      trace = tscope_trace_load (path, NULL, &error);
      g_assert_true ((trace == NULL) != (error == NULL));
      if (error)
        g_assert_null (strchr (error->message, '\n'));
      g_clear_object (&trace);
    }
  g_rand_free (rand);
  g_unlink (path);
  g_rmdir (dir);
}

/* One changed byte inside the event formats of kvm-guest.dat (v6, so the
 * formats are plain text in the file): libtraceevent 1.7 crashes on some
 * of these (so does trace-cmd report); we refuse them with one line.  The
 * first cases are the crashes found by fuzzing, then seeded random ones. */
static void
test_corrupted_formats (void)
{
  static const struct { gsize at; char byte; } found[] = {
    { 16111, 'l' }, { 25772, 'n' }, { 14793, 'f' }, { 14212, 'r' }, { 12767, '\0' }, { 2053, ']' },
    { 19607, ')' },
  };
  static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz;:[](){}*%\"' \n\t\\\0\377";
  g_autofree char *src = tscope_test_data ("kvm-guest", ".dat");
  g_autofree char *dir = g_dir_make_tmp ("tscope-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "format.dat", NULL);
  g_autofree char *contents = NULL;
  GRand *rand = g_rand_new_with_seed (20261123);
  const char *first;
  const char *last = NULL;
  guint refused = 0;
  gsize len;

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  first = memmem (contents, len, "name: ", 6);
  /* the last format of the file: the one before the kallsyms */
  for (const char *p = first; p && (p = memmem (p + 1, contents + len - p - 1, "print fmt:", 10)); )
    last = p;
  g_assert_nonnull (first);
  g_assert_nonnull (last);
  for (guint round = 0; round < G_N_ELEMENTS (found) + 1200; round++)
    {
      g_autoptr(GError) error = NULL;
      TscopeTrace *trace;
      gsize at;
      char saved;

      at = round < G_N_ELEMENTS (found) ? found[round].at
                                        : (gsize) g_rand_int_range (rand, first - contents, last - contents + 2000);
      saved = contents[at];
      contents[at] = round < G_N_ELEMENTS (found) ? found[round].byte
                                                  : alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
      g_assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));
      contents[at] = saved;
      trace = tscope_trace_load (path, NULL, &error);
      g_assert_true ((trace == NULL) != (error == NULL));
      if (error)
        {
          g_assert_true (g_str_has_prefix (error->message, path));
          g_assert_null (strchr (error->message, '\n'));
          refused++;
        }
      else if (round < G_N_ELEMENTS (found))
        g_error ("the corrupt format of case %u loaded", round);
      g_clear_object (&trace);
    }
  g_assert_cmpuint (refused, >, G_N_ELEMENTS (found));
  g_rand_free (rand);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_no_such_buffer (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autoptr(GError) error = NULL;
  TscopeLoadOptions options = { .buffer = "nope" };
  TscopeTrace *trace = tscope_trace_load (path, &options, &error);

  g_assert_null (trace);
  g_assert_error (error, TSCOPE_ERROR, TSCOPE_ERROR_NO_BUFFER);
  g_assert_nonnull (strstr (error->message, "nope"));
}

static gboolean
cancel_at_half (double   fraction,
                gpointer data)
{
  *(double *) data = fraction;
  return fraction < 0.5;
}

static void
test_cancel (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autoptr(GError) error = NULL;
  double seen = 0;
  TscopeLoadOptions options = { .progress = cancel_at_half, .progress_data = &seen };
  TscopeTrace *trace = tscope_trace_load (path, &options, &error);

  g_assert_null (trace);
  g_assert_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CANCELLED);
  g_assert_cmpfloat (seen, >=, 0.5);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bad-input/shared-files", test_shared_bad_files);
  g_test_add_func ("/bad-input/missing-and-directory", test_missing_and_directory);
  g_test_add_func ("/bad-input/unreadable", test_unreadable);
  g_test_add_func ("/bad-input/every-cut", test_every_cut);
  g_test_add_func ("/bad-input/corrupted-bytes", test_corrupted_bytes);
  g_test_add_func ("/bad-input/corrupted-formats", test_corrupted_formats);
  g_test_add_func ("/bad-input/no-such-buffer", test_no_such_buffer);
  g_test_add_func ("/bad-input/cancel", test_cancel);
  return g_test_run ();
}
