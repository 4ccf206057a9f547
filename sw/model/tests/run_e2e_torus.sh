#!/bin/bash
# run_e2e_torus.sh - make test-c-ni-e2e-torus (mk/ni_model.mk): the C NI
# model's end-to-end reliability on a 16x16x1 torus across lossy links, a
# link failure and a node that stops (test_ni_e2e_torus.c), then the same
# test against two planted model variants that must fail it:
#   sources16  records only for source indices < 16 (KOLO_NI_PLANT_E2E_SOURCES)
#   forget20   every 20th record forgotten (KOLO_NI_PLANT_E2E_FORGET)
# Each plant must fail with "executed once: no" (an atomic ran twice) on the
# 16x16x16 target and on 16x16x1, "duplicates detected: no" and "records for
# every source: no".
#   sw/model/tests/run_e2e_torus.sh BUILD_SW_DIR      (SEED=<n> replays)
set -u
dir=$1
fails=0
"$dir/test_ni_e2e_torus" || fails=1
for plant in sources16 forget20; do
    out=$("$dir/test_ni_e2e_torus-$plant" 2>&1)
    rc=$?
    missing=
    for want in "^  16x16x16 target: .*executed once: no" "^  executed once: no" "^  duplicates detected: no" \
        "^  records for every source: no"; do
        grep -qE "$want" <<<"$out" || missing="$missing [$want]"
    done
    if [ $rc -eq 1 ] && [ -z "$missing" ]; then
        echo "plant $plant: caught (exit $rc; $(grep -E '^  (16x16x16|executed once|duplicates detected)' <<<"$out" | tr -s ' ' | tr '\n' ';'))"
    else
        echo "plant $plant: NOT caught (exit $rc, missing:$missing)"
        tail -n 12 <<<"$out"
        fails=1
    fi
done
[ $fails -eq 0 ] && echo "test-c-ni-e2e-torus: PASS" || echo "test-c-ni-e2e-torus: FAIL"
exit $fails
