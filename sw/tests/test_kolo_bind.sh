#!/usr/bin/env bash
# test_kolo_bind.sh KOLO_BIND - kolo-bind on fake sysfs/dev trees. A "fake
# kernel" (a background loop on the tree's drivers_probe FIFO) binds a device
# to the driver its driver_override names, as the kernel does, so the tool's
# whole bind-then-check path runs. Each case checks the exit status, the
# message, and what was written to the tree.
set -uo pipefail
tool=$1
fails=0 n=0
root=$(mktemp -d /tmp/kolo-bind-test.XXXXXX)
kpid=
cleanup() { [ -n "$kpid" ] && kill "$kpid" 2>/dev/null; rm -rf "$root"; }
trap cleanup EXIT

ok()   { n=$((n + 1)); echo "ok   $*"; }
fail() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL $*"; }

# device BDF GROUP DRIVER VENDOR
device() {
  local d=$root/sys/bus/pci/devices/$1
  mkdir -p "$d"
  echo "$4" > "$d/vendor"; echo 0x7028 > "$d/device"; echo "(null)" > "$d/driver_override"
  if [ "$2" != - ]; then
    mkdir -p "$root/sys/kernel/iommu_groups/$2/devices"
    ln -sfn "../../../../kernel/iommu_groups/$2" "$d/iommu_group"
    ln -sfn "../../../../bus/pci/devices/$1" "$root/sys/kernel/iommu_groups/$2/devices/$1"
  fi
  if [ "$3" != - ]; then
    mkdir -p "$root/sys/bus/pci/drivers/$3"; : > "$root/sys/bus/pci/drivers/$3/unbind"
    ln -sfn "../../../../bus/pci/drivers/$3" "$d/driver"
  else
    rm -f "$d/driver"
  fi
}

fake_kernel() {  # binds on drivers_probe as the kernel would (driver_override wins)
  local fifo=$root/sys/bus/pci/drivers_probe bdf drv
  rm -f "$fifo"; mkfifo "$fifo"
  ( while true; do
      bdf=; read -r bdf < "$fifo" || true
      [ -n "$bdf" ] || continue
      drv=$(cat "$root/sys/bus/pci/devices/$bdf/driver_override")
      [ "$drv" = "(null)" ] || ln -sfn "../../../../bus/pci/drivers/$drv" "$root/sys/bus/pci/devices/$bdf/driver"
    done ) &
  kpid=$!
}

reset_tree() {
  [ -n "$kpid" ] && kill "$kpid" 2>/dev/null; kpid=
  rm -rf "$root"; mkdir -p "$root/sys/bus/pci/drivers/vfio-pci" "$root/dev/vfio"
  : > "$root/dev/vfio/vfio"
}

run() {  # expected-status pattern name args...
  local want=$1 pat=$2 name=$3; shift 3
  local out st
  out=$("$tool" --root="$root" "$@" 2>&1); st=$?
  if [ $st -ne "$want" ]; then fail "$name: exit $st, want $want:"; sed 's/^/    /' <<< "$out"
  elif ! grep -q -- "$pat" <<< "$out"; then fail "$name: no '$pat' in:"; sed 's/^/    /' <<< "$out"
  else ok "$name"; fi
}

# 1. binding a card on another driver, a bridge in its group
reset_tree; fake_kernel
device 0000:03:00.0 17 xdma 0x10ee
device 0000:00:01.0 17 pcieport 0x8086
: > "$root/dev/vfio/17"
run 0 "ready: KOLO_DEVICE=vfio:0000:03:00.0" "bind from xdma" 03:00.0
[ "$(cat "$root/sys/bus/pci/drivers/xdma/unbind")" = 0000:03:00.0 ] && ok "unbound from xdma" || fail "xdma unbind not written"
[ "$(readlink "$root/sys/bus/pci/devices/0000:03:00.0/driver")" = ../../../../bus/pci/drivers/vfio-pci ] \
  && ok "now on vfio-pci" || fail "driver link: $(readlink "$root/sys/bus/pci/devices/0000:03:00.0/driver")"
run 0 "driver vfio-pci" "second run: already bound" 0000:03:00.0
run 0 "0000:03:00.0: vendor 10ee" "--list shows the Xilinx card" --list
out=$("$tool" --root="$root" --list 2>&1)
grep -q 0000:00:01.0 <<< "$out" && fail "--list shows the Intel bridge" || ok "--list leaves out other vendors"

# 2. check only: reports, writes nothing
reset_tree
device 0000:04:00.0 5 xdma 0x10ee
run 1 "not bound to vfio-pci" "--check of a card on xdma" --check 04:00.0
[ "$(cat "$root/sys/bus/pci/devices/0000:04:00.0/driver_override")" = "(null)" ] \
  && ok "--check wrote nothing" || fail "--check wrote driver_override"

# 3. a foreign device in the group: refused, then bound with --group
reset_tree; fake_kernel
device 0000:05:00.0 9 xdma 0x10ee
device 0000:05:00.1 9 ixgbe 0x8086
: > "$root/dev/vfio/9"
run 1 "0000:05:00.1 in the same group is bound to ixgbe" "group with a NIC" 05:00.0
run 0 "binding 0000:05:00.1 (on ixgbe) of IOMMU group 9" "--group binds the NIC too" --group 05:00.0
[ "$(readlink "$root/sys/bus/pci/devices/0000:05:00.1/driver")" = ../../../../bus/pci/drivers/vfio-pci ] \
  && ok "NIC on vfio-pci" || fail "NIC driver link"

# 4. each missing piece
reset_tree
run 1 "no such device" "no device" 0000:07:00.0
device 0000:07:00.0 - - 0x10ee
run 1 "intel_iommu=on" "no IOMMU" 07:00.0
rm -rf "$root/sys/bus/pci/drivers/vfio-pci"
device 0000:07:00.0 2 - 0x10ee
run 1 "modprobe vfio-pci" "vfio-pci not loaded" 07:00.0
mkdir -p "$root/sys/bus/pci/drivers/vfio-pci"
device 0000:07:00.0 2 vfio-pci 0x10ee
run 1 "/dev/vfio/2 is missing" "no group node" 07:00.0
mkdir -p "$root/dev/vfio/2"
run 1 "cannot open" "group node not openable" 07:00.0
rmdir "$root/dev/vfio/2"; : > "$root/dev/vfio/2"
run 0 "ready" "complete" 07:00.0
run 1 "no free 2 MB huge pages" "--hugepages without any" --hugepages 07:00.0
mkdir -p "$root/sys/kernel/mm/hugepages/hugepages-2048kB"
echo 64 > "$root/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
echo 64 > "$root/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"
run 0 "ready" "--hugepages with 64 free" --hugepages 07:00.0
out=$( (ulimit -l 64; "$tool" --root="$root" --memlock=1G 07:00.0) 2>&1); st=$?
[ $st = 1 ] && grep -q "ulimit -l unlimited" <<< "$out" && ok "--memlock=1G over a 64 KB limit" \
  || { fail "--memlock: exit $st"; sed 's/^/    /' <<< "$out"; }

# 5. usage
run 2 "usage" "no card" --check
run 2 "unknown option" "bad option" --frobnicate 07:00.0
run 2 "bad size" "bad --memlock" --memlock=lots 07:00.0
run 1 "not a PCI address" "bad address" 7:00

echo "test_kolo_bind: $n checks, $fails failed"
[ $fails = 0 ]
