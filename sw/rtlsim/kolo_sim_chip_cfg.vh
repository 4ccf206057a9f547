// kolo_sim_chip_cfg.vh - the parameters of the simulated chips
// (sw/rtlsim/kolo_sim_chips.v, kolo_sim_chip.v) as macros, with their defaults:
// a hierarchical build with Verilator 5.006 takes no -G, so the builds give
// +define+ instead (mk/chip.mk, mk/sim_chip.mk).
`ifndef KOLO_SIM_CHIP_CFG_VH
`define KOLO_SIM_CHIP_CFG_VH
`ifndef KOLO_SIM_DIM_X
`define KOLO_SIM_DIM_X 2
`endif
`ifndef KOLO_SIM_DIM_Y
`define KOLO_SIM_DIM_Y 1
`endif
`ifndef KOLO_SIM_DIM_Z
`define KOLO_SIM_DIM_Z 1
`endif
`ifndef KOLO_CHIP_LANES
`define KOLO_CHIP_LANES 1
`endif
`ifndef KOLO_CHIP_GT_DATA_W
`define KOLO_CHIP_GT_DATA_W 64
`endif
`ifndef KOLO_CHIP_PCIE_ASYNC
`define KOLO_CHIP_PCIE_ASYNC 0
`endif
`ifndef KOLO_CHIP_SP_INTERNAL
`define KOLO_CHIP_SP_INTERNAL 0
`endif
`ifndef KOLO_CHIP_SP_ASYNC
`define KOLO_CHIP_SP_ASYNC 0
`endif
`ifndef KOLO_CHIP_TRAIN_BUDGET
`define KOLO_CHIP_TRAIN_BUDGET 20000
`endif
`ifndef KOLO_CHIP_FW_IMEM
`define KOLO_CHIP_FW_IMEM ""
`endif
`ifndef KOLO_CHIP_FW_DMEM
`define KOLO_CHIP_FW_DMEM ""
`endif
// lanes of one chip, all six ports (kolo_sim_chip's lane ports)
`define KOLO_SIM_CHIP_NL (6 * `KOLO_CHIP_LANES)
`ifndef KOLO_CHIP_PORT_EN
`define KOLO_CHIP_PORT_EN (3 * (`KOLO_SIM_DIM_X > 1) + 12 * (`KOLO_SIM_DIM_Y > 1) + 48 * (`KOLO_SIM_DIM_Z > 1))
`endif
`endif
