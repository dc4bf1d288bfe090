#!/bin/bash
# A bootable disk image for Bochs, which has no -kernel/-initrd: a FAT16
# file system over the whole disk (no partition table), SYSLINUX in its
# boot sector, the kernel, the initramfs and the command line.  No loop
# device and no root: mkfs.fat -C, syslinux --install, mcopy.
#   mkimage.sh BZIMAGE INITRAMFS "CMDLINE" OUT.img
# Prints the disk's cylinder count (16 heads, 63 sectors a track), which
# the bochsrc must give.
set -euo pipefail
bz=$1 initrd=$2 cmdline=$3 out=$4
cyl_bytes=$((16 * 63 * 512))
size=$(( $(stat -c %s "$bz") + $(stat -c %s "$initrd") + 8 * 1048576 ))
cyl=$(( size / cyl_bytes + 1 ))
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
rm -f "$out"
mkfs.fat -C -F 16 -g 16/63 "$out" $(( cyl * cyl_bytes / 1024 )) >/dev/null
syslinux --install "$out"
# SERIAL 0: SYSLINUX talks on COM1, which is the kernel's console too.
printf 'SERIAL 0 115200\nDEFAULT linux\nPROMPT 0\nTIMEOUT 0\nLABEL linux\n KERNEL bzImage\n APPEND initrd=initrd %s\n' \
	"$cmdline" > "$cfg"
mcopy -i "$out" "$cfg" ::syslinux.cfg
mcopy -i "$out" "$bz" ::bzImage
mcopy -i "$out" "$initrd" ::initrd
echo "$cyl"
