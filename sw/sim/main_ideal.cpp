// main_ideal.cpp - kolo-sim with the ideal network only; --net=rtl execs the
// Verilated build of the torus size (kolo-sim-XxYxZ) next to this binary.
#include "sim.h"

int main(int argc, char **argv) { return kolo_sim::sim_main(argc, argv, nullptr, nullptr); }
