/* SPDX-License-Identifier: GPL-2.0 */
/* Load, attach and read the KVM_HC_HOST_SYSCALL BPF policy (libbpf skeleton). */
#ifndef HC_POLICY_H
#define HC_POLICY_H

#include <stdint.h>

enum { HCP_VMM = 0, HCP_KERNEL = 1, HCP_DENY = 2 };
/* The numbers the policy map holds (MAX_NR of hc_policy.bpf.c). */
#define HCP_MAX_NR	512

struct hc_policy;

/* Open and load; NULL with errno set on failure (e.g. EPERM unprivileged). */
struct hc_policy *hc_policy_load(void);
int hc_policy_set(struct hc_policy *p, unsigned int nr, int verdict);
int hc_policy_attach(struct hc_policy *p);
void hc_policy_detach(struct hc_policy *p);
uint64_t hc_policy_count(struct hc_policy *p, unsigned int nr);
void hc_policy_destroy(struct hc_policy *p);
/* Try to load a sleepable program on the hook: 0 if it was refused for that. */
int hc_misuse_rejected(void);

#endif
