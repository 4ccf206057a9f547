# mk/deps.mk - tools kolo needs, installed with apt-get when missing.
# Every other target depends on $(DEPS_STAMP); the stamp records the tool
# versions found, so a change of machine or tool reruns the check.

DEPS_STAMP := $(BUILD)/.deps-ok
# command -> Debian package
DEPS_TOOLS := verilator:verilator iverilog:iverilog yosys:yosys yosys-smtbmc:yosys \
              z3:z3 gtkwave:gtkwave fst2vcd:gtkwave gnuplot:gnuplot-nox g++:g++ gcc:gcc \
              make:make nm:binutils python3:python3 ccache:ccache \
              powerpc-linux-gnu-gcc:gcc-powerpc-linux-gnu qemu-system-ppc:qemu-system-ppc \
              riscv64-unknown-elf-gcc:gcc-riscv64-unknown-elf \
              /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs:picolibc-riscv64-unknown-elf \
              qemu-system-riscv32:qemu-system-misc \
              mpirun.openmpi:openmpi-bin /usr/include/x86_64-linux-gnu/openmpi/mpi.h:libopenmpi-dev \
              mpiexec.mpich:mpich \
              openFPGALoader:openfpgaloader

.PHONY: deps
deps: $(DEPS_STAMP)

# The project's Python virtual environment (pip packages of
# scripts/requirements.txt). It lives outside build/ so that `make clean` does
# not throw away the YoWASP tools' compiled WebAssembly caches with it.
VENV := $(TOP)/.venv
VENV_BIN := $(VENV)/bin
export VENV VENV_BIN

$(DEPS_STAMP): mk/deps.mk scripts/deps.sh scripts/requirements.txt
	@scripts/deps.sh $(DEPS_TOOLS)
	@scripts/deps_venv.sh $(VENV) scripts/requirements.txt
	@mkdir -p $(@D) && touch $@
