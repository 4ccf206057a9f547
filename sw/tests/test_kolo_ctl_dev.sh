#!/bin/bash
# test kolo-ctl-device: kolo-ctl --device=uart:<tty> against a board behind
# the UART bridge on a pseudo-terminal (uart_board_sim: the bridge protocol
# and node (1,0,0)'s registers): status, links, counters, read, write,
# console, bridge; its own node only; the simulation-only and unknown
# commands, a device that cannot be opened, each with its exit status.
# usage: test_kolo_ctl_dev.sh KOLO_CTL UART_BOARD_SIM
set -u
ctl=$1 sim=$2
dir=$(mktemp -d)
fails=0 checks=0
# each model runs until its stdin closes (the fifos' writers are this script's fds 3, 4, 5)
trap 'exec 3>&- 4>&- 5>&-; wait 2>/dev/null; rm -rf "$dir"' EXIT
start_sim() {  # name, fd, model options...: sets dev
    local name=$1 fd=$2; shift 2
    mkfifo "$dir/in.$name"
    "$sim" "$@" "$dir/path.$name" < "$dir/in.$name" &
    eval "exec $fd>\"\$dir/in.\$name\""
    for _ in $(seq 100); do [ -s "$dir/path.$name" ] && break; sleep 0.05; done
    dev="--device=uart:$(cat "$dir/path.$name")@115200"
}
start_sim board 3

check() {  # name, expected exit, grep pattern, command...
    local name=$1 want=$2 pat=$3; shift 3
    checks=$((checks + 1))
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" != "$want" ] || ! grep -qE -- "$pat" <<<"$out"; then
        echo "FAIL $name: exit $rc (want $want), output:"; sed 's/^/    /' <<<"$out"; fails=$((fails + 1))
    else
        echo "ok   $name"
    fi
}
check "status"            0 '^ +1  \(1,0,0\) +up +7  0x0002  X-$' "$ctl" "$dev" status
check "links"             0 '^X\+ +up +\(0,0,0\)X- +3 +0 +5000 +4999 +0$' "$ctl" "$dev" links 1
check "links: X- training" 0 '^X- +train +- ' "$ctl" "$dev" links 1,0,0
check "links: Y+ absent"  0 '^Y\+ +absent' "$ctl" "$dev" links 1
check "counters"          0 'NI: tx 1234 rx 4294968496 ' "$ctl" "$dev" counters 1
check "counters: mailbox" 0 'mailbox: sent 9,' "$ctl" "$dev" counters 1
check "read SYS_ID"       0 '^0x4b4f4c53$' "$ctl" "$dev" read 1 0x0
check "write"             0 '^ok$' "$ctl" "$dev" write 1 0x28 0x33
check "write read back"   0 '^0x00000033$' "$ctl" "$dev" read 1 0x28
check "console"           0 'kolo fw: node \(1,0,0\) up' "$ctl" "$dev" console 0.5
check "bridge"            0 'bridge KOUB version 1.0: baud 1000000 crc_errors 0' "$ctl" "$dev" bridge
check "another node"      1 'only its own node \(1,0,0\)' "$ctl" "$dev" links 0
check "bad node"          1 "bad NODE 'x'" "$ctl" "$dev" links x
check "unaligned read"    2 'bad ADDR' "$ctl" "$dev" read 1 0x2
check "table"             2 'not over a device' "$ctl" "$dev" table 1
check "fail-link"         2 'simulation only' "$ctl" "$dev" fail-link 1 0
check "unknown"           2 "unknown command 'frob'" "$ctl" "$dev" frob
check "arguments"         2 'wrong number of arguments' "$ctl" "$dev" links
# host messages (kolo_hmsg.h): the model has no firmware, so no area first;
# then an area written by hand in the host mailbox (HMBOX at 0x800: id,
# counters): counters are read; the id cleared: no area again; bad input
# refused before the line is opened
check "msg: no area"      1 'serves no host messages' "$ctl" "$dev" msg send 0 hello
check "msg recv: no area" 1 'serves no host messages' "$ctl" "$dev" msg recv
check "msg: too long"     2 'TEXT of 33 bytes: 1..32' "$ctl" "$dev" msg send 0 123456789012345678901234567890123
check "msg: empty text"   2 'TEXT of 0 bytes' "$ctl" "$dev" msg send 0 ""
check "msg: bad node"     2 "bad NODE 'q'" "$ctl" "$dev" msg send q hi
check "msg: usage"        2 'usage: msg send' "$ctl" "$dev" msg frob
check "msg: not uart"     2 'over the UART only' "$ctl" --device=vfio:0000:01:00.0 msg recv
for w in "0x800 0x484d5347" "0x860 5" "0x864 1" "0x868 4" "0x86c 2" "0x870 3" "0x874 0"; do
    "$ctl" "$dev" write 1 $w > /dev/null
done
check "msg counters"      0 'sent 5, refused 1, received 4, dropped 2 \(queue full\), bad 3, waiting 0' "$ctl" "$dev" msg counters
"$ctl" "$dev" write 1 0x800 0 > /dev/null
check "msg: area gone"    1 'serves no host messages' "$ctl" "$dev" msg counters
# a chip without an NI (the ECP5 board): the NI's registers answer ERROR;
# kolo_open takes node and torus from the service block
start_sim noni 4 --no-ni
check "no NI: status"     0 'torus 2x1x1, no NI, firmware running' "$ctl" "$dev" status
check "no NI: node"       0 '^ +1  \(1,0,0\) +up +7  0x0002  X-$' "$ctl" "$dev" status
check "no NI: links"      0 '^X\+ +up +\(0,0,0\)X- +3 +0 +5000 +4999 +0$' "$ctl" "$dev" links 1
check "no NI: counters"   0 'NI: none on this chip' "$ctl" "$dev" counters 1
start_sim nosvc 5 --no-ni --no-svc-id
check "no NI, no service block" 3 "reading the NI's ID register failed, and no service block answers" \
    "$ctl" "$dev" status
check "no such tty"       3 'No such file' "$ctl" --device=uart:/nonexistent/tty status
check "not a device"      3 'unknown device' "$ctl" --device=pcie:0 status
echo "kolo-ctl-device: $checks checks, $fails failed"
[ $fails -eq 0 ]
