# mk/formal_link.mk - formal runs of the link layer (formal/link/): two
# kolo_link_core ends joined by a channel that drops and corrupts blocks,
# free routers on both sides; ABC on the bit-level model (formal_link.sh).
#
#   make test-formal-link-bmc   quick: CRC lemma, BMC 22 cycles, covers,
#                               and the negative control (in `make test`)
#   make formal-full-link       deeper BMC, real CRC, other channel and VC
#                               settings (in `make formal`)
# Logs, VCD traces: build/formal_link/<run>/.

FL_RUN := formal/link/formal_link.sh
FL_OUT := $(BUILD)/formal_link

.PHONY: test-formal-link-bmc formal-full-link
test-formal-link-bmc: $(DEPS_STAMP)
	@$(FL_RUN) -o $(FL_OUT)/quick -abs-crc -d 22 -cd 29 -mode lemma,bmc,cover
	@$(FL_RUN) -o $(FL_OUT)/quick_blind -blind-crc -d 22 -mode bmcfail

formal-full-link: $(DEPS_STAMP)
	@$(FL_RUN) -o $(FL_OUT)/full -abs-crc -d 26 -cd 32 -mode lemma,bmc,cover
	@$(FL_RUN) -o $(FL_OUT)/full_realcrc -d 20 -mode bmc
	@$(FL_RUN) -o $(FL_OUT)/full_chanreg -abs-crc -d 24 -p CHAN_REG=1 -mode bmc
	@$(FL_RUN) -o $(FL_OUT)/full_nvc1 -abs-crc -d 26 -p NVC=1 -mode bmc
	@$(FL_RUN) -o $(FL_OUT)/full_blind -blind-crc -d 22 -mode bmcfail

TESTS += formal-link-bmc
FORMAL += link
