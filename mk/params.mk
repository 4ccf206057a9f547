# mk/params.mk - parameter sets the router must refuse at elaboration.
.PHONY: test-router-params
test-router-params: | $(DEPS_STAMP)
	@scripts/check_bad_params.sh
TESTS += router-params
