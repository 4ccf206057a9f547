`default_nettype none
// kolo_sp - the service processor of one kolo node: the project's own
// RV32IM core (machine mode only), its instruction and data RAM loaded from
// the firmware image at build time, a local timer, a console byte stream,
// a heartbeat LED, and a 32-bit AXI4-Lite master onto the service block
// (kolo_svc's s_axil_* port). docs/cpu.md is the full description.
//
// *** SKELETON (first landing, ports and header only): the core is not in
// *** this file yet. Every output is held idle (no bus access, no console
// *** byte, heartbeat 0, no fault, no trace). No test treats it as working.
//
// Memory map (data side; fetch only from IMEM). The same addresses are those
// of QEMU's riscv32 `virt` machine where it has a device, so one image runs
// on both (docs/cpu.md 3):
//   0x0010_0000  FINISH   write 0x5555: pass, 0x3333 | code << 16: fail
//                         (QEMU's sifive_test; here only the trace sees it)
//   0x0200_0000  CLINT    MSIP +0x0000, MTIMECMP +0x4000 (lo, hi),
//                         MTIME +0xBFF8 (lo, hi); MTIME counts clk cycles
//   0x1000_0000  CONSOLE  16550 subset: THR +0 (write a byte), LSR +5 (bit 5
//                         THRE, bit 6 TEMT: the one-byte buffer is free);
//                         other offsets: writes ignored, reads 0
//   0x1000_1000  SP       kolo SP registers: ID, memory sizes, HEARTBEAT,
//                         fault and console counters (docs/cpu.md 3)
//   0x4000_0000  SVC      the service block, 2^ADDR_W bytes, on m_axil_*
//   0x8000_0000  IMEM     IMEM_BYTES: fetch, and data loads (read-only)
//   0x8010_0000  DMEM     DMEM_BYTES: data loads and stores
// Any other address, an IMEM store, or an SVC address at or beyond
// 2^ADDR_W is an access fault without a bus access.
//
// Core: two stages. Fetch reads IMEM (block RAM, registered address) at
// pc_f; execute decodes, reads the register file (LUT RAM, 2 read ports),
// computes and writes back in one cycle. Taken branches, jumps, traps and
// mret cost one bubble; loads and MUL/MULH* take 2 cycles, DIV/REM 34, an
// SVC access the bus latency (5+ cycles on kolo_svc), WFI waits for an
// enabled interrupt. CSRs: mstatus (MIE, MPIE; MPP reads 3), misa, mie, mip
// (MEIP = irq, MTIP = mtime >= mtimecmp, MSIP), mtvec (direct), mscratch,
// mepc, mcause, mtval, mhartid (0), mcycle[h], minstret[h], and the
// read-only cycle[h], instret[h], time[h]. An unknown CSR, an unknown
// opcode, and a write of a read-only CSR are illegal instructions.
//
// Traps: illegal instruction (2), instruction address misaligned (0: a jump
// or branch target with bit 1 set) or access fault (1: pc outside IMEM),
// load/store address misaligned (4/6), load/store access fault (5/7:
// unmapped address, AXI SLVERR/DECERR, or no response within BUS_TIMEOUT
// cycles), ebreak (3), ecall (11), and the interrupts MEI > MSI > MTI,
// taken between instructions when mstatus.MIE and the mie bit are set.
// Each of the exceptions 0, 1, 2, 4, 5, 6, 7 also pulses `fault` for one
// cycle with fault_cause = the mcause code and fault_pc = mepc (the chip
// raises the service block's SP_FAULT event from it, docs/svc.md).
//
// Bus: one AXI4-Lite access at a time, AW and W offered together and held
// until each is taken, BREADY/RREADY high while waiting. A sub-word store
// becomes a write with the lane strobes (kolo_svc refuses it: SLVERR, a
// store access fault); a sub-word load reads the word. After a timeout the
// master still waits for the late response before it starts another access
// (which times out in turn if none comes): the core is never stuck on the bus.
//
// Console: a store to THR puts the byte on m_console_* (valid held until
// ready); a store while the byte before is still waiting is dropped and
// counted (SP CONSOLE_DROPS). Drivers poll LSR.THRE first and lose nothing.
//
// Reset: rst synchronous, active high; pc = RESET_PC, the registers x1..x31
// and RAM contents are not reset (RAM keeps the image loaded at build time
// until reprogrammed: a reset does not reload DMEM; the start-up code copies
// nothing and clears .bss itself, so re-running needs no reload).
//
// Trace (testbenches and formal only; leave unconnected in a design): one
// line per instruction that completes or traps, in program order.
//
// Parameters: IMEM_BYTES/DMEM_BYTES (powers of two, 4 KB..1 MB, checked),
// IMEM_INIT/DMEM_INIT ($readmemh files of 32-bit words from the RAM's first
// word; "" leaves the RAM unloaded), ADDR_W (the service block's address
// width, kolo_svc's), BUS_TIMEOUT (cycles), RESET_PC.
/* verilator lint_off UNUSEDPARAM */  // SKELETON: used once the core lands
module kolo_sp #(
    parameter IMEM_BYTES  = 65536,
    parameter DMEM_BYTES  = 65536,
    parameter IMEM_INIT   = "",
    parameter DMEM_INIT   = "",
    parameter ADDR_W      = 15,
    parameter BUS_TIMEOUT = 65536,
    parameter [31:0] RESET_PC = 32'h8000_0000
) (
    /* verilator lint_on UNUSEDPARAM */
    input  wire              clk,
    input  wire              rst,
    // AXI4-Lite master onto kolo_svc s_axil_*
    output wire              m_axil_awvalid,
    input  wire              m_axil_awready,
    output wire [ADDR_W-1:0] m_axil_awaddr,
    output wire              m_axil_wvalid,
    input  wire              m_axil_wready,
    output wire [31:0]       m_axil_wdata,
    output wire [3:0]        m_axil_wstrb,
    input  wire              m_axil_bvalid,
    output wire              m_axil_bready,
    input  wire [1:0]        m_axil_bresp,
    output wire              m_axil_arvalid,
    input  wire              m_axil_arready,
    output wire [ADDR_W-1:0] m_axil_araddr,
    input  wire              m_axil_rvalid,
    output wire              m_axil_rready,
    input  wire [31:0]       m_axil_rdata,
    input  wire [1:0]        m_axil_rresp,
    // kolo_svc irq (level)
    input  wire              irq,
    // console byte stream
    output wire              m_console_valid,
    output wire [7:0]        m_console_data,
    input  wire              m_console_ready,
    // LED, firmware-driven (SP HEARTBEAT.LED)
    output wire              heartbeat,
    // one-cycle pulse per fault (exceptions 0, 1, 2, 4, 5, 6, 7)
    output wire              fault,
    output wire [3:0]        fault_cause,
    output wire [31:0]       fault_pc,
    // trace: testbenches and formal only
    output wire              trace_valid,      // an instruction completed or trapped
    output wire              trace_trap,       // it trapped (or an interrupt was taken before it)
    output wire [31:0]       trace_cause,      // mcause of the trap
    output wire [31:0]       trace_pc,
    output wire [31:0]       trace_insn,
    output wire [4:0]        trace_rd,         // register written (0: none)
    output wire [31:0]       trace_rd_data,
    output wire [31:0]       trace_mem_addr,   // load/store address
    output wire [3:0]        trace_mem_wstrb,  // store lanes (0: no store)
    output wire [31:0]       trace_mem_wdata
);
  generate
    if (IMEM_BYTES < 4096 || IMEM_BYTES > 1048576 || (IMEM_BYTES & (IMEM_BYTES - 1)) != 0) begin : g_bad_imem
      IMEM_BYTES_must_be_a_power_of_two_from_4K_to_1M u_error ();
    end
    if (DMEM_BYTES < 4096 || DMEM_BYTES > 1048576 || (DMEM_BYTES & (DMEM_BYTES - 1)) != 0) begin : g_bad_dmem
      DMEM_BYTES_must_be_a_power_of_two_from_4K_to_1M u_error ();
    end
    if (ADDR_W < 2 || ADDR_W > 16) begin : g_bad_addr_w
      ADDR_W_must_be_2_to_16 u_error ();
    end
  endgenerate

  // SKELETON: outputs idle until the core lands.
  assign m_axil_awvalid = 1'b0;
  assign m_axil_awaddr = {ADDR_W{1'b0}};
  assign m_axil_wvalid = 1'b0;
  assign m_axil_wdata = 32'd0;
  assign m_axil_wstrb = 4'd0;
  assign m_axil_bready = 1'b1;
  assign m_axil_arvalid = 1'b0;
  assign m_axil_araddr = {ADDR_W{1'b0}};
  assign m_axil_rready = 1'b1;
  assign m_console_valid = 1'b0;
  assign m_console_data = 8'd0;
  assign heartbeat = 1'b0;
  assign fault = 1'b0;
  assign fault_cause = 4'd0;
  assign fault_pc = 32'd0;
  assign trace_valid = 1'b0;
  assign trace_trap = 1'b0;
  assign trace_cause = 32'd0;
  assign trace_pc = 32'd0;
  assign trace_insn = 32'd0;
  assign trace_rd = 5'd0;
  assign trace_rd_data = 32'd0;
  assign trace_mem_addr = 32'd0;
  assign trace_mem_wstrb = 4'd0;
  assign trace_mem_wdata = 32'd0;

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, clk, rst, m_axil_awready, m_axil_wready, m_axil_bvalid, m_axil_bresp, m_axil_arready,
                  m_axil_rvalid, m_axil_rdata, m_axil_rresp, irq, m_console_ready};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
