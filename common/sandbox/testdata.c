// SPDX-License-Identifier: GPL-2.0
/* The files the sandbox's test and bench run programs on. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testdata.h"

static int make_big(size_t big)
{
	unsigned long long x = 0x243f6a8885a308d3ULL;
	FILE *f = fopen("big.bin", "w");
	size_t i;

	/* Half random, half text, so that gzip has work of both kinds. */
	for (i = 0; f && i < big / 2; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		fputc((int)(x & 0xff), f);
	}
	for (i = 0; f && (size_t)ftell(f) < big; i++)
		fprintf(f, "line %zu of the text half\n", i);
	return f && !fclose(f) ? 0 : -1;
}

static int make_tree(int dirs, int files)
{
	char path[128];
	int i, j;

	if (mkdir("tree", 0755) && errno != EEXIST)
		return -1;
	for (i = 0; i < dirs; i++) {
		snprintf(path, sizeof(path), "tree/d%d", i);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "tree/d%d/sub", i);
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		for (j = 0; j < files; j++) {
			FILE *f;

			snprintf(path, sizeof(path), "tree/d%d/%s%d", i,
				 j % 2 ? "sub/f" : "f", j);
			f = fopen(path, "w");
			if (!f)
				return -1;
			fprintf(f, "%d %d\n", i, j);
			fclose(f);
		}
	}
	return 0;
}

static int gzip_big(const char *busybox)
{
	int status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open("big.gz", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execl(busybox, busybox, "gzip", "-c", "big.bin", (char *)NULL);
		_exit(127);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status) ? 0 : -1;
}

int sb_make_data(const char *busybox, size_t big, int dirs, int files,
		 char *why, size_t len)
{
	if (make_big(big)) {
		snprintf(why, len, "big.bin: %s", strerror(errno));
		return -1;
	}
	if (make_tree(dirs, files)) {
		snprintf(why, len, "tree/: %s", strerror(errno));
		return -1;
	}
	if (gzip_big(busybox)) {
		snprintf(why, len, "%s gzip -c big.bin failed", busybox);
		return -1;
	}
	return 0;
}

bool sb_same_file(const char *a, const char *b)
{
	FILE *x = fopen(a, "r"), *y = fopen(b, "r");
	bool same = x && y;
	int c;

	while (same && (c = fgetc(x)) != EOF)
		same = c == fgetc(y);
	same = same && fgetc(y) == EOF;
	if (x)
		fclose(x);
	if (y)
		fclose(y);
	return same;
}
