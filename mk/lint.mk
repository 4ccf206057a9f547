# mk/lint.mk - lint of all RTL (rtl/**, not rtl/platform) with Verilator -Wall,
# Icarus -Wall, Yosys (hierarchy -check; proc; check -assert) and slang (the
# strict front end, through pyslang), every module as top; see
# scripts/lint.sh. Any warning fails. Output in build/lint/.
#
#   make lint             the same as make test-lint-rtl
#   make test-lint-rtl    (in `make test`)
#   make test-lint-slang  planted bugs the strict front end must catch (seconds)

.PHONY: lint test-lint-rtl test-lint-slang
lint test-lint-rtl: $(DEPS_STAMP)
	@scripts/lint.sh
TESTS += lint-rtl

test-lint-slang: $(DEPS_STAMP)
	@scripts/test_lint_slang.sh
TESTS += lint-slang
