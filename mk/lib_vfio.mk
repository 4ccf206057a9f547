# mk/lib_vfio.mk - kolo-bind (binds a kolo card to vfio-pci and checks the
# host: IOMMU group, device nodes, access, memlock, huge pages) and the tests
# of those checks on fake sysfs trees. docs/boards.md "Binding the card".
#
#   make kolo-bind           build/lib/kolo-bind
#   make test-vfio-sysfs     kolo_vfio_check/bind and libkolo's vfio: backend on
#                            fake trees, one missing piece at a time (C, ASan+UBSan)
#   make test-kolo-bind      the tool on fake trees, with a fake kernel that
#                            binds on drivers_probe (sw/tests/test_kolo_bind.sh)

KOLO_BIND := $(LIB_BUILD)/kolo-bind
.PHONY: kolo-bind test-vfio-sysfs test-kolo-bind
kolo-bind: $(KOLO_BIND)
$(KOLO_BIND): sw/tools/kolo-bind.c sw/include/kolo_vfio.h $(LIBKOLO) mk/lib_vfio.mk
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_CFLAGS) $< $(LIBKOLO) -o $@
$(LIB_BUILD)/kolo-bind-san: sw/tools/kolo-bind.c sw/include/kolo_vfio.h $(LIBKOLO_SAN) mk/lib_vfio.mk
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_SAN_CFLAGS) $< $(LIBKOLO_SAN) -o $@

$(LIB_BUILD)/test_vfio: sw/tests/test_vfio.c sw/include/kolo_vfio.h $(LIBKOLO_SAN) mk/lib_vfio.mk
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_SAN_CFLAGS) $< $(LIBKOLO_SAN) -o $@

test-vfio-sysfs: $(LIB_BUILD)/test_vfio $(DEPS_STAMP)
	$<
test-kolo-bind: $(LIB_BUILD)/kolo-bind-san sw/tests/test_kolo_bind.sh $(DEPS_STAMP)
	sw/tests/test_kolo_bind.sh $<
TESTS += vfio-sysfs kolo-bind

# the host's end of the UART bridge (sw/lib/kolo_uart.c, the uart: backend)
# against a model of the board over socket pairs and a pseudo-terminal
$(LIB_BUILD)/test_uart: sw/tests/test_uart.c sw/tests/uart_board_model.c sw/tests/uart_board_model.h \
    sw/include/kolo_uart.h sw/include/kolo_uart_regs.h $(LIBKOLO_SAN) mk/lib_vfio.mk
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_SAN_CFLAGS) -Isw/tests sw/tests/test_uart.c sw/tests/uart_board_model.c $(LIBKOLO_SAN) -lutil -lpthread -o $@
.PHONY: test-uart-host
test-uart-host: $(LIB_BUILD)/test_uart $(DEPS_STAMP)
	$(if $(SEED),SEED=$(SEED)) $<
TESTS += uart-host

# kolo-ctl --device=uart:<tty> against a board model on a pseudo-terminal
$(LIB_BUILD)/uart_board_sim: sw/tests/uart_board_sim.c sw/tests/uart_board_model.c sw/tests/uart_board_model.h \
    $(LIBKOLO) mk/lib_vfio.mk
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_CFLAGS) -Isw/tests sw/tests/uart_board_sim.c sw/tests/uart_board_model.c $(LIBKOLO) \
	    -lutil -lpthread -o $@
.PHONY: test-kolo-ctl-device
test-kolo-ctl-device: $(KOLO_CTL) $(LIB_BUILD)/uart_board_sim sw/tests/test_kolo_ctl_dev.sh $(DEPS_STAMP)
	sw/tests/test_kolo_ctl_dev.sh $(KOLO_CTL) $(LIB_BUILD)/uart_board_sim
TESTS += kolo-ctl-device
