/* SPDX-License-Identifier: GPL-2.0 */
/* The sandbox's loader (loader.c), and what the host side needs of it. */
#ifndef SB_LOADER_H
#define SB_LOADER_H

#include <stddef.h>
#include "sandbox.h"

/* 0 if path is a static x86-64 executable; else -1 and why. */
int sb_check(const char *path, char *why, size_t len);
/*
 * Map the program at path (its image and heap, a stack, the mmap arena,
 * all MAP_SHARED) and fill s for a run with argv and envp: 0, or -1 and
 * why.  s itself must be shared memory too.
 */
int sb_load(struct sb_state *s, const char *path, char *const argv[],
	    char *const envp[], char *why, size_t len);
/* The program's regions (a VM maps each): how many, their starts and sizes. */
int sb_regions(const struct sb_state *s, uint64_t start[3], uint64_t size[3]);

#endif
