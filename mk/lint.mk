# mk/lint.mk - lint of all RTL (rtl/**, not rtl/platform) with Verilator -Wall,
# Icarus -Wall and Yosys (hierarchy -check; proc; check -assert), every module
# as top; see scripts/lint.sh. Any warning fails. Output in build/lint/.
#
#   make lint             the same as make test-lint-rtl
#   make test-lint-rtl    (in `make test`)

.PHONY: lint test-lint-rtl
lint test-lint-rtl: $(DEPS_STAMP)
	@scripts/lint.sh
TESTS += lint-rtl
