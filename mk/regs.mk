# mk/regs.mk - the service register map: one description (rtl/regs/kolo_svc_regs.toml),
# three generated files (RTL constants, C header, docs/registers.md) kept in git.
# `make regs` regenerates them; test regs-gen checks they are up to date and that
# the generator refuses broken maps.
REGS_MAP := rtl/regs/kolo_svc_regs.toml
REGS_OUT := rtl/include/kolo_svc_regs.vh sw/include/kolo_svc_regs.h docs/registers.md

.PHONY: regs test-regs-gen
regs: $(REGS_MAP) scripts/gen_regs.py | $(DEPS_STAMP)
	python3 scripts/gen_regs.py $(REGS_MAP) --vh rtl/include/kolo_svc_regs.vh \
	    --h sw/include/kolo_svc_regs.h --md docs/registers.md

test-regs-gen: | $(DEPS_STAMP)
	scripts/test_regs.sh $(BUILD)/regs-test
TESTS += regs-gen
