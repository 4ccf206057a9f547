`default_nettype none
// kolo_sp - the service processor of one kolo node: the project's own
// RV32IM core (machine mode only), its instruction and data RAM loaded from
// the firmware image at build time, a local timer, a console byte stream,
// a heartbeat LED, and a 32-bit AXI4-Lite master onto the service block
// (kolo_svc's s_axil_* port). docs/cpu.md is the full description.
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
// mret cost one bubble; loads and MUL/MULH* take 2 cycles, DIV/REM 6..18, an
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
// Trace (TRACE = 1, testbenches and formal; 0 ties the outputs to zero and
// costs nothing: leave them unconnected in a design): one line per
// instruction that completes or traps, in program order.
//
// Parameters: IMEM_BYTES/DMEM_BYTES (powers of two, 4 KB..1 MB, checked),
// IMEM_INIT/DMEM_INIT ($readmemh files of 32-bit words from the RAM's first
// word; "" leaves the RAM unloaded), ADDR_W (the service block's address
// width, kolo_svc's), BUS_TIMEOUT (cycles), RESET_PC.
`include "kolo_sp_regs.vh"
module kolo_sp #(
    parameter IMEM_BYTES  = `KOLO_SP_IMEM_BYTES_DEFAULT,
    parameter DMEM_BYTES  = `KOLO_SP_DMEM_BYTES_DEFAULT,
    parameter IMEM_INIT   = "",
    parameter DMEM_INIT   = "",
    parameter ADDR_W      = 15,
    parameter BUS_TIMEOUT = 65536,
    parameter [31:0] RESET_PC = `KOLO_SP_IMEM_BASE,
    parameter BAD_DECODE  = 0,      // tests only: the planted decode bug (kolo_sp_core)
    parameter TRACE       = 0       // 1: the trace_* outputs (testbenches, formal); 0: tied to zero
) (
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
    if (IMEM_BYTES < 4096 || IMEM_BYTES > `KOLO_SP_IMEM_SIZE || (IMEM_BYTES & (IMEM_BYTES - 1)) != 0) begin : g_bad_imem
      IMEM_BYTES_must_be_a_power_of_two_from_4K_to_1M u_error ();
    end
    if (DMEM_BYTES < 4096 || DMEM_BYTES > `KOLO_SP_DMEM_SIZE || (DMEM_BYTES & (DMEM_BYTES - 1)) != 0) begin : g_bad_dmem
      DMEM_BYTES_must_be_a_power_of_two_from_4K_to_1M u_error ();
    end
    if (ADDR_W < 3 || (1 << ADDR_W) > `KOLO_SP_SVC_SIZE) begin : g_bad_addr_w
      ADDR_W_must_be_3_to_15 u_error ();
    end
    if (BUS_TIMEOUT < 16) begin : g_bad_timeout
      BUS_TIMEOUT_must_be_at_least_16 u_error ();
    end
  endgenerate

  localparam IW = $clog2(IMEM_BYTES) - 2;   // word address widths
  localparam DW = $clog2(DMEM_BYTES) - 2;
  localparam [31:0] IMEM_BASE = `KOLO_SP_IMEM_BASE;
  localparam [31:0] DMEM_BASE = `KOLO_SP_DMEM_BASE;
  localparam [31:0] IMEM_LIMIT = IMEM_BYTES;
  localparam [31:0] DMEM_LIMIT = DMEM_BYTES;
  localparam [31:0] SVC_LIMIT = 32'd1 << ADDR_W;
  localparam [31:0] SVC_BASE = `KOLO_SP_SVC_BASE, CLINT_BASE = `KOLO_SP_CLINT_BASE;
  localparam [31:0] CONSOLE_BASE = `KOLO_SP_CONSOLE_BASE, SP_BASE = `KOLO_SP_SP_BASE;
  localparam [31:0] FINISH_BASE = `KOLO_SP_FINISH_BASE;
  localparam [31:0] IMEM_KB = IMEM_BYTES / 1024;
  localparam [31:0] DMEM_KB = DMEM_BYTES / 1024;

  // ---- core ------------------------------------------------------------------------------
  wire [31:0] imem_addr, imem_rdata;
  wire imem_en;
  wire dbus_valid, dbus_write;
  wire [31:0] dbus_addr, dbus_wdata;
  wire [3:0] dbus_wstrb;
  reg dbus_done, dbus_err;
  reg [31:0] dbus_rdata;
  wire [63:0] mtime;   // the core's mcycle
  reg [63:0] mtimecmp;
  reg msip, mtip, meip;
  kolo_sp_core #(
      .RESET_PC(RESET_PC),
      .IMEM_BASE(IMEM_BASE),
      .IMEM_BYTES(IMEM_BYTES),
      .BAD_DECODE(BAD_DECODE),
      .TRACE(TRACE)
  ) u_core (
      .clk(clk),
      .rst(rst),
      .imem_addr(imem_addr),
      .imem_en(imem_en),
      .imem_rdata(imem_rdata),
      .dbus_valid(dbus_valid),
      .dbus_write(dbus_write),
      .dbus_addr(dbus_addr),
      .dbus_wdata(dbus_wdata),
      .dbus_wstrb(dbus_wstrb),
      .dbus_done(dbus_done),
      .dbus_err(dbus_err),
      .dbus_rdata(dbus_rdata),
      .irq_ext(meip),
      .irq_timer(mtip),
      .irq_soft(msip),
      .cycles(mtime),
      .fault(fault),
      .fault_cause(fault_cause),
      .fault_pc(fault_pc),
      .trace_valid(trace_valid),
      .trace_trap(trace_trap),
      .trace_cause(trace_cause),
      .trace_pc(trace_pc),
      .trace_insn(trace_insn),
      .trace_rd(trace_rd),
      .trace_rd_data(trace_rd_data),
      .trace_mem_addr(trace_mem_addr),
      .trace_mem_wstrb(trace_mem_wstrb),
      .trace_mem_wdata(trace_mem_wdata)
  );

  // ---- data-side decode ----------------------------------------------------------------
  wire [31:0] a = dbus_addr;
  wire [31:0] imem_off = a - IMEM_BASE, dmem_off = a - DMEM_BASE, svc_off = a - SVC_BASE;
  wire sel_imem = a[31:20] == IMEM_BASE[31:20] && imem_off < IMEM_LIMIT;
  wire sel_dmem = a[31:20] == DMEM_BASE[31:20] && dmem_off < DMEM_LIMIT;
  wire sel_svc = a[31:16] == SVC_BASE[31:16] && svc_off < SVC_LIMIT;
  wire sel_clint = a[31:16] == CLINT_BASE[31:16];
  wire sel_console = a[31:12] == CONSOLE_BASE[31:12];
  wire sel_spreg = a[31:12] == SP_BASE[31:12];
  wire sel_finish = a[31:12] == FINISH_BASE[31:12];
  wire sel_local = sel_clint || sel_console || sel_spreg || sel_finish;
  // the access is refused without any bus activity: unmapped, or a store to IMEM
  wire sel_bad = !(sel_imem || sel_dmem || sel_svc || sel_local) || (sel_imem && dbus_write);

  // One access at a time: `pend` marks a read (or refusal) answered in the next cycle;
  // DMEM and local writes complete in their own cycle; SVC accesses when kolo_sp_axil says.
  reg pend, pend_err;
  reg [2:0] pend_src;   // 0 IMEM, 1 DMEM, 2 local registers
  reg [31:0] local_q;
  localparam [2:0] SRC_IMEM = 3'd0, SRC_DMEM = 3'd1, SRC_LOCAL = 3'd2;
  wire new_acc = dbus_valid && !pend && !sel_svc;
  wire quick_write = new_acc && dbus_write && (sel_dmem || sel_local) && !sel_bad;
  wire slow = new_acc && !quick_write;   // answered next cycle
  wire local_wr = quick_write && sel_local;

  wire axi_done, axi_err;
  wire [31:0] axi_rdata;
  kolo_sp_axil #(
      .ADDR_W(ADDR_W),
      .TIMEOUT(BUS_TIMEOUT)
  ) u_axil (
      .clk(clk),
      .rst(rst),
      .req(dbus_valid && sel_svc),
      .write(dbus_write),
      .addr(svc_off[ADDR_W-1:0]),
      .wdata(dbus_wdata),
      .wstrb(dbus_wstrb),
      .done(axi_done),
      .err(axi_err),
      .rdata(axi_rdata),
      .m_axil_awvalid(m_axil_awvalid),
      .m_axil_awready(m_axil_awready),
      .m_axil_awaddr(m_axil_awaddr),
      .m_axil_wvalid(m_axil_wvalid),
      .m_axil_wready(m_axil_wready),
      .m_axil_wdata(m_axil_wdata),
      .m_axil_wstrb(m_axil_wstrb),
      .m_axil_bvalid(m_axil_bvalid),
      .m_axil_bready(m_axil_bready),
      .m_axil_bresp(m_axil_bresp),
      .m_axil_arvalid(m_axil_arvalid),
      .m_axil_arready(m_axil_arready),
      .m_axil_araddr(m_axil_araddr),
      .m_axil_rvalid(m_axil_rvalid),
      .m_axil_rready(m_axil_rready),
      .m_axil_rdata(m_axil_rdata),
      .m_axil_rresp(m_axil_rresp)
  );

  // ---- RAMs --------------------------------------------------------------------------------
  wire [31:0] imem_drdata, dmem_rdata;
  /* verilator lint_off PINCONNECTEMPTY */  // DMEM: one port
  kolo_sp_ram #(
      .WORDS(IMEM_BYTES / 4),
      .INIT(IMEM_INIT)
  ) u_imem (
      .clk(clk),
      .a_en(imem_en),
      .a_addr(imem_addr[IW+1:2]),
      .a_rdata(imem_rdata),
      .b_en(new_acc && sel_imem),
      .b_we(4'd0),
      .b_addr(imem_off[IW+1:2]),
      .b_wdata(32'd0),
      .b_rdata(imem_drdata)
  );
  kolo_sp_ram #(
      .WORDS(DMEM_BYTES / 4),
      .INIT(DMEM_INIT)
  ) u_dmem (
      .clk(clk),
      .a_en(1'b0),
      .a_addr({DW{1'b0}}),
      .a_rdata(),
      .b_en(new_acc && sel_dmem),
      .b_we(dbus_write ? dbus_wstrb : 4'd0),
      .b_addr(dmem_off[DW+1:2]),
      .b_wdata(dbus_wdata),
      .b_rdata(dmem_rdata)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- local registers: CLINT, console, SP ------------------------------------------------------
  wire [15:0] clint_off = a[15:0];
  wire [11:0] page_off = a[11:0];
  reg heartbeat_q;
  reg [31:0] faults, console_drops;
  reg console_valid, console_dlab;
  reg [7:0] console_data;
  reg [31:0] local_rd;
  always @(*) begin
    local_rd = 32'd0;
    if (sel_clint)
      case (clint_off & 16'hFFFC)
        16'h0000: local_rd = {31'd0, msip};
        16'h4000: local_rd = mtimecmp[31:0];
        16'h4004: local_rd = mtimecmp[63:32];
        16'hBFF8: local_rd = mtime[31:0];
        16'hBFFC: local_rd = mtime[63:32];
        default: local_rd = 32'd0;
      endcase
    else if (sel_console)
      local_rd = page_off[11:2] == 10'd1 ? {17'd0, !console_valid, !console_valid, 13'd0} : 32'd0;
    else if (sel_spreg)
      case (page_off[11:2])
        10'd0: local_rd = `KOLO_SP_SP_ID_RESET;
        10'd1: local_rd = {DMEM_KB[15:0], IMEM_KB[15:0]};
        10'd2: local_rd = {31'd0, heartbeat_q};
        10'd3: local_rd = faults + {31'd0, fault};   // with the pulse of the trap just taken
        10'd4: local_rd = console_drops;
        default: local_rd = 32'd0;
      endcase
  end

  always @(posedge clk) begin
    if (rst) begin
      pend <= 1'b0;
      mtimecmp <= 64'hFFFF_FFFF_FFFF_FFFF;
      msip <= 1'b0;
      mtip <= 1'b0;
      meip <= 1'b0;
      heartbeat_q <= 1'b0;
      faults <= 32'd0;
      console_drops <= 32'd0;
      console_valid <= 1'b0;
      console_dlab <= 1'b0;
    end else begin
      pend <= slow;
      mtip <= mtime >= mtimecmp;
      meip <= irq;
      if (fault) faults <= faults + 32'd1;
      if (console_valid && m_console_ready) console_valid <= 1'b0;
      if (local_wr && sel_clint) begin
        if (clint_off == 16'h0000 && dbus_wstrb[0]) msip <= dbus_wdata[0];
        if (clint_off == 16'h4000) mtimecmp[31:0] <= dbus_wdata;
        if (clint_off == 16'h4004) mtimecmp[63:32] <= dbus_wdata;
      end
      // LCR.DLAB (offset 3, bit 7): while set, offset 0 is a 16550's divisor latch, not THR
      if (local_wr && sel_console && page_off[11:2] == 10'd0 && dbus_wstrb[3]) console_dlab <= dbus_wdata[31];
      if (local_wr && sel_console && page_off[11:2] == 10'd0 && dbus_wstrb[0] && !console_dlab) begin
        if (console_valid && !m_console_ready) console_drops <= console_drops + 32'd1;
        else begin
          console_valid <= 1'b1;
          console_data <= dbus_wdata[7:0];
        end
      end
      if (local_wr && sel_spreg && page_off[11:2] == 10'd2 && dbus_wstrb[0]) heartbeat_q <= dbus_wdata[0];
    end
    if (slow) begin
      pend_err <= sel_bad;
      pend_src <= sel_imem ? SRC_IMEM : sel_dmem ? SRC_DMEM : SRC_LOCAL;
      local_q <= local_rd;
    end
  end
  assign m_console_valid = console_valid;
  assign m_console_data = console_data;
  assign heartbeat = heartbeat_q;

  always @(*) begin
    if (dbus_valid && sel_svc) begin
      dbus_done = axi_done;
      dbus_err = axi_err;
    end else begin
      dbus_done = pend || quick_write;
      dbus_err = pend && pend_err;
    end
    case (pend_src)
      SRC_IMEM: dbus_rdata = imem_drdata;
      SRC_DMEM: dbus_rdata = dmem_rdata;
      default: dbus_rdata = local_q;
    endcase
    if (dbus_valid && sel_svc) dbus_rdata = axi_rdata;
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, imem_addr[31:IW+2], imem_addr[1:0], page_off[1:0], imem_off[31:IW+2], imem_off[1:0], dmem_off[31:DW+2], dmem_off[1:0], svc_off[31:ADDR_W]};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
