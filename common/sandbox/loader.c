// SPDX-License-Identifier: GPL-2.0
/*
 * The sandbox's loader: checks that a file is a static x86-64 executable,
 * maps it, its brk heap, a stack and the mmap arena as MAP_SHARED regions
 * at the addresses the program expects, and lays out its initial stack
 * as the kernel does for execve() (argc, argv, envp, the auxiliary
 * vector).  No vDSO is offered (no AT_SYSINFO_EHDR): the C library then
 * makes its clock calls as system calls, which the sandbox sees.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <unistd.h>

#include "loader.h"

#define PAGE_DOWN(x)	((x) & ~(SB_PAGE - 1))
#define PAGE_UP(x)	PAGE_DOWN((x) + SB_PAGE - 1)
/* Where a static-pie program is put (it names no address of its own). */
#define PIE_BASE	0x10000000UL
#define MAX_PHDRS	64

struct elf_image {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[MAX_PHDRS];
	uint64_t base;		/* added to every vaddr (static-pie) */
	uint64_t lo, hi;	/* the PT_LOAD span, page aligned, before base */
	uint64_t phdr;		/* where the program headers are, in memory */
};

static int fail(char *why, size_t len, const char *fmt, const char *arg)
{
	snprintf(why, len, fmt, arg);
	return -1;
}

/* Read and check the headers: a static x86-64 executable, or say why not. */
static int read_elf(int fd, const char *path, struct elf_image *im, char *why,
		    size_t len)
{
	int i;

	memset(im, 0, sizeof(*im));
	if (pread(fd, &im->eh, sizeof(im->eh), 0) != sizeof(im->eh) ||
	    memcmp(im->eh.e_ident, ELFMAG, SELFMAG))
		return fail(why, len, "%s: not an ELF file", path);
	if (im->eh.e_ident[EI_CLASS] != ELFCLASS64 || im->eh.e_machine != EM_X86_64 ||
	    im->eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return fail(why, len, "%s: not an x86-64 (64-bit) executable", path);
	if (im->eh.e_type != ET_EXEC && im->eh.e_type != ET_DYN)
		return fail(why, len, "%s: not an executable (a relocatable object or a core?)", path);
	if (!im->eh.e_phnum || im->eh.e_phnum > MAX_PHDRS ||
	    im->eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    pread(fd, im->ph, im->eh.e_phnum * sizeof(Elf64_Phdr), im->eh.e_phoff) !=
	    (ssize_t)(im->eh.e_phnum * sizeof(Elf64_Phdr)))
		return fail(why, len, "%s: unreadable program headers", path);

	im->lo = ~0UL;
	for (i = 0; i < im->eh.e_phnum; i++) {
		const Elf64_Phdr *p = &im->ph[i];

		if (p->p_type == PT_INTERP)
			return fail(why, len, "%s: dynamically linked (it names an interpreter): "
				    "the sandbox runs static executables only", path);
		if (p->p_type != PT_LOAD)
			continue;
		if (p->p_filesz > p->p_memsz || p->p_vaddr + p->p_memsz < p->p_vaddr)
			return fail(why, len, "%s: a PT_LOAD segment is malformed", path);
		if (PAGE_DOWN(p->p_vaddr) < im->lo)
			im->lo = PAGE_DOWN(p->p_vaddr);
		if (PAGE_UP(p->p_vaddr + p->p_memsz) > im->hi)
			im->hi = PAGE_UP(p->p_vaddr + p->p_memsz);
		/* The headers are in memory where the segment that holds them is. */
		if (p->p_offset <= im->eh.e_phoff &&
		    im->eh.e_phoff < p->p_offset + p->p_filesz)
			im->phdr = p->p_vaddr + im->eh.e_phoff - p->p_offset;
	}
	if (im->lo >= im->hi)
		return fail(why, len, "%s: nothing to load", path);
	if (im->hi - im->lo > (1UL << 30))
		return fail(why, len, "%s: larger than 1 GiB", path);
	im->base = im->eh.e_type == ET_DYN ? PIE_BASE - im->lo : 0;
	return 0;
}

int sb_check(const char *path, char *why, size_t len)
{
	struct elf_image im;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	r = read_elf(fd, path, &im, why, len);
	close(fd);
	return r;
}

static void *map_shared(void *at, size_t size)
{
	int flags = MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE;
	void *p;

	if (at)
		flags |= MAP_FIXED_NOREPLACE;
	p = mmap(at, size, PROT_READ | PROT_WRITE | PROT_EXEC, flags, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Push bytes down the stack being built; their address. */
static uint64_t push_bytes(uint64_t *sp, const void *p, size_t n)
{
	*sp -= n;
	memcpy((void *)*sp, p, n);
	return *sp;
}

static uint64_t push_str(uint64_t *sp, const char *s)
{
	return push_bytes(sp, s, strlen(s) + 1);
}

/*
 * The initial stack: strings at the top, then (16-byte aligned at argc)
 * argc, argv[], NULL, envp[], NULL, the auxiliary vector.
 */
static int build_stack(struct sb_state *s, const struct elf_image *im,
		       const char *execfn, char *const argv[], char *const envp[])
{
	uint64_t sp = s->stack + SB_STACK_SIZE, rnd, platform, fn, *v, nwords;
	int argc = 0, envc = 0, i, k = 0;
	unsigned char bytes[16];
	uint64_t *av, *ev;

	while (argv[argc])
		argc++;
	while (envp[envc])
		envc++;
	av = calloc(argc + 1, sizeof(*av));
	ev = calloc(envc + 1, sizeof(*ev));
	if (!av || !ev || getrandom(bytes, sizeof(bytes), 0) != sizeof(bytes))
		return -1;
	fn = push_str(&sp, execfn);
	for (i = envc - 1; i >= 0; i--)
		ev[i] = push_str(&sp, envp[i]);
	for (i = argc - 1; i >= 0; i--)
		av[i] = push_str(&sp, argv[i]);
	platform = push_str(&sp, "x86_64");
	rnd = push_bytes(&sp, bytes, sizeof(bytes));

	uint64_t aux[][2] = {
		{ AT_PHDR, im->phdr + im->base }, { AT_PHENT, sizeof(Elf64_Phdr) },
		{ AT_PHNUM, im->eh.e_phnum }, { AT_PAGESZ, SB_PAGE },
		{ AT_BASE, 0 }, { AT_FLAGS, 0 }, { AT_ENTRY, im->eh.e_entry + im->base },
		{ AT_UID, getuid() }, { AT_EUID, geteuid() }, { AT_GID, getgid() },
		{ AT_EGID, getegid() }, { AT_PLATFORM, platform },
		{ AT_HWCAP, getauxval(AT_HWCAP) }, { AT_HWCAP2, getauxval(AT_HWCAP2) },
		{ AT_CLKTCK, sysconf(_SC_CLK_TCK) }, { AT_SECURE, 0 },
		{ AT_RANDOM, rnd }, { AT_EXECFN, fn },
		{ AT_MINSIGSTKSZ, getauxval(AT_MINSIGSTKSZ) }, { AT_NULL, 0 },
	};
	int naux = sizeof(aux) / sizeof(aux[0]);

	nwords = 1 + argc + 1 + envc + 1 + 2 * naux;
	sp = (sp - nwords * 8) & ~15UL;
	v = (uint64_t *)sp;
	v[k++] = argc;
	for (i = 0; i < argc; i++)
		v[k++] = av[i];
	v[k++] = 0;
	for (i = 0; i < envc; i++)
		v[k++] = ev[i];
	v[k++] = 0;
	for (i = 0; i < naux; i++) {
		v[k++] = aux[i][0];
		v[k++] = aux[i][1];
	}
	s->sp = sp;
	free(av);
	free(ev);
	return 0;
}

/* What the supervisor answers for the process itself, captured now. */
static void process_facts(struct sb_state *s, const char *path)
{
	char *copy = strdup(path), *abs = realpath(path, NULL);
	struct rlimit rl;
	int i;

	snprintf(s->exe, sizeof(s->exe), "%s", abs ? abs : path);
	snprintf(s->comm, sizeof(s->comm), "%s", copy ? basename(copy) : path);
	if (!getcwd(s->cwd, sizeof(s->cwd)))
		snprintf(s->cwd, sizeof(s->cwd), "/");
	for (i = 0; i < SB_NR_RLIMITS; i++) {
		if (getrlimit(i, &rl))
			rl.rlim_cur = rl.rlim_max = RLIM_INFINITY;
		if (i == RLIMIT_NOFILE) {
			rl.rlim_cur = rl.rlim_cur < SB_FD_LIMIT ? rl.rlim_cur : SB_FD_LIMIT;
			rl.rlim_max = rl.rlim_cur;
		}
		s->rlim[i].cur = rl.rlim_cur;
		s->rlim[i].max = rl.rlim_max;
	}
	free(copy);
	free(abs);
}

int sb_load(struct sb_state *s, const char *path, char *const argv[],
	    char *const envp[], char *why, size_t len)
{
	struct elf_image im;
	uint64_t span;
	void *image;
	int fd, i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(why, len, "%s: cannot open", path);
	if (read_elf(fd, path, &im, why, len))
		goto err;
	span = im.hi - im.lo + SB_HEAP_SIZE;
	image = map_shared((void *)(im.lo + im.base), span);
	if (!image) {
		snprintf(why, len, "%s: its addresses [%#lx, %#lx) are taken in the sandbox (%s)",
			 path, im.lo + im.base, im.hi + im.base + SB_HEAP_SIZE, strerror(errno));
		goto err;
	}
	for (i = 0; i < im.eh.e_phnum; i++) {
		const Elf64_Phdr *p = &im.ph[i];

		if (p->p_type == PT_LOAD && p->p_filesz &&
		    pread(fd, (void *)(p->p_vaddr + im.base), p->p_filesz, p->p_offset) !=
		    (ssize_t)p->p_filesz) {
			snprintf(why, len, "%s: short read of a segment", path);
			goto err;
		}
	}
	close(fd);

	s->image = im.lo + im.base;
	s->brk_start = s->brk = im.hi + im.base;
	s->brk_end = s->brk_start + SB_HEAP_SIZE;
	s->entry = im.eh.e_entry + im.base;
	s->stack = (uint64_t)map_shared(NULL, SB_STACK_SIZE);
	s->arena = (uint64_t)map_shared(NULL, SB_ARENA_SIZE);
	if (!s->stack || !s->arena) {
		snprintf(why, len, "mapping the stack and the arena: %s", strerror(errno));
		return -1;
	}
	process_facts(s, path);
	if (build_stack(s, &im, path, argv, envp)) {
		snprintf(why, len, "building the stack: %s", strerror(errno));
		return -1;
	}
	return 0;
err:
	close(fd);
	return -1;
}

/* The regions a VM must map, in order: image and heap, stack, arena. */
int sb_regions(const struct sb_state *s, uint64_t start[3], uint64_t size[3])
{
	start[0] = s->image;
	size[0] = s->brk_end - s->image;
	start[1] = s->stack;
	size[1] = SB_STACK_SIZE;
	start[2] = s->arena;
	size[2] = SB_ARENA_SIZE;
	return 3;
}
