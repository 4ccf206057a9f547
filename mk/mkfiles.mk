# mk/mkfiles.mk - checks of the build description itself.
#
#   make test-mk-vars   no mk/*.mk fragment names a variable (in a rule's
#                       prerequisites, a := assignment, an $(eval)) before the
#                       fragment defining it is read (scripts/check_mk_vars.sh);
#                       the include order before the check is the plant
.PHONY: test-mk-vars
test-mk-vars: | $(DEPS_STAMP)
	@scripts/check_mk_vars.sh
	@if scripts/check_mk_vars.sh MK_FIRST="mk/deps.mk mk/synth.mk" > /dev/null 2>&1; then \
	    echo "FAIL test-mk-vars: the planted include order (MK_FIRST = deps.mk synth.mk) was not caught"; exit 1; fi
	@echo "test-mk-vars: the planted include order is caught"
TESTS += mk-vars
