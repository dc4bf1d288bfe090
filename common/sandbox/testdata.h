/* SPDX-License-Identifier: GPL-2.0 */
/* The files the sandbox's test and bench run programs on (testdata.c). */
#ifndef SB_TESTDATA_H
#define SB_TESTDATA_H

#include <stdbool.h>
#include <stddef.h>

/*
 * In the current directory: big.bin (@big bytes, half pseudo-random, half
 * text, the same every time), tree/ (@dirs directories of @files files, a
 * subdirectory in each) and big.gz (big.bin gzipped by @busybox run
 * directly).  0, or -1 with why.
 */
int sb_make_data(const char *busybox, size_t big, int dirs, int files,
		 char *why, size_t len);

/* Whether the files a and b hold the same bytes (false if one is missing). */
bool sb_same_file(const char *a, const char *b);

#endif
