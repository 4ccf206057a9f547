# mk/deps.mk - tools kolo needs, installed with apt-get when missing.
# Every other target depends on $(DEPS_STAMP); the stamp records the tool
# versions found, so a change of machine or tool reruns the check.

DEPS_STAMP := $(BUILD)/.deps-ok
# command -> Debian package
DEPS_TOOLS := verilator:verilator iverilog:iverilog yosys:yosys yosys-smtbmc:yosys \
              z3:z3 gtkwave:gtkwave fst2vcd:gtkwave gnuplot:gnuplot-nox g++:g++ gcc:gcc \
              make:make nm:binutils python3:python3 ccache:ccache \
              powerpc-linux-gnu-gcc:gcc-powerpc-linux-gnu qemu-system-ppc:qemu-system-ppc

.PHONY: deps
deps: $(DEPS_STAMP)

$(DEPS_STAMP): mk/deps.mk scripts/deps.sh
	@scripts/deps.sh $(DEPS_TOOLS)
	@mkdir -p $(@D) && touch $@
