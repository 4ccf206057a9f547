`default_nettype none
// kolo_sp_core - the RV32IM core of the service processor (kolo_sp): machine
// mode only, two stages, written from the RISC-V unprivileged (20191213) and
// privileged (20211203) specifications. docs/cpu.md section 4.
//
// Fetch: the instruction memory is a synchronous RAM read at imem_addr
// when imem_en; its word arrives in the next cycle (imem_rdata). The
// address is the next pc: pc + 4, or a branch/jump/trap/mret target in the
// cycle the redirecting instruction completes, so taken branches cost no
// bubble. Execute: decode, register file (LUT RAM, two asynchronous read
// ports), ALU, branch, CSR; the result is written at the clock edge that
// completes the instruction. Single-cycle instructions complete in their
// first cycle; loads and stores, MUL* (2 cycles), DIV*/REM* (6..18 cycles) and
// WFI hold the stage (imem_en low) until done. No forwarding is needed: an
// instruction reads its registers after the one before has written.
//
// Data bus: dbus_valid with dbus_addr/write/wdata/wstrb (byte lanes of the
// addressed word; the address is the byte address) held until dbus_done,
// which may come in the cycle of the request (stores to RAM) or later;
// dbus_err with dbus_done is an access fault. dbus_rdata (with done) is the
// whole word; the core picks and extends the bytes. Misaligned accesses
// trap before a request is made.
//
// Traps and interrupts: an exception replaces the instruction's effects
// (no register write, no store), sets mepc/mcause/mtval, saves MIE in MPIE,
// clears MIE and continues at mtvec. An interrupt (irq_* & mie, with
// mstatus.MIE) is taken before an instruction in its first cycle, never in
// the middle of a multi-cycle one. fault pulses (registered, one cycle after
// the trap) for exceptions 0, 1, 2, 4, 5, 6, 7 with the cause and pc.
//
// Trace (TRACE = 1; 0 ties it to zero): trace_* describe the instruction
// completing or trapping in this cycle (combinational; testbenches sample
// them before the clock edge). cycles is mcycle (writable through the CSR),
// which the CLINT shows as MTIME.
//
// Parameters: RESET_PC; IMEM_BASE/IMEM_BYTES (fetch outside is an
// instruction access fault); BAD_DECODE (0; the test build's planted decode
// bug, docs/cpu.md: 1 makes SLT compare unsigned).
module kolo_sp_core #(
    parameter [31:0] RESET_PC   = 32'h8000_0000,
    parameter [31:0] IMEM_BASE  = 32'h8000_0000,
    parameter        IMEM_BYTES = 65536,
    parameter        BAD_DECODE = 0,
    parameter        TRACE      = 0
) (
    input  wire        clk,
    input  wire        rst,
    // instruction memory
    output wire [31:0] imem_addr,
    output wire        imem_en,
    input  wire [31:0] imem_rdata,
    // data bus
    output wire        dbus_valid,
    output wire        dbus_write,
    output wire [31:0] dbus_addr,
    output wire [31:0] dbus_wdata,
    output wire [3:0]  dbus_wstrb,
    input  wire        dbus_done,
    input  wire        dbus_err,
    input  wire [31:0] dbus_rdata,
    // interrupts (levels) and the timer for the time CSR
    input  wire        irq_ext,
    input  wire        irq_timer,
    input  wire        irq_soft,
    output wire [63:0] cycles,     // mcycle: the CLINT's MTIME
    // faults
    output reg         fault,
    output reg  [3:0]  fault_cause,
    output reg  [31:0] fault_pc,
    // trace
    output wire        trace_valid,
    output wire        trace_trap,
    output wire [31:0] trace_cause,
    output wire [31:0] trace_pc,
    output wire [31:0] trace_insn,
    output wire [4:0]  trace_rd,
    output wire [31:0] trace_rd_data,
    output wire [31:0] trace_mem_addr,
    output wire [3:0]  trace_mem_wstrb,
    output wire [31:0] trace_mem_wdata
);
  // ---- opcodes (instruction bits 6:2; bits 1:0 must be 11) --------------------------------
  localparam [4:0] OP_LOAD = 5'b00000, OP_MISC_MEM = 5'b00011, OP_OP_IMM = 5'b00100, OP_AUIPC = 5'b00101,
                   OP_STORE = 5'b01000, OP_OP = 5'b01100, OP_LUI = 5'b01101, OP_BRANCH = 5'b11000,
                   OP_JALR = 5'b11001, OP_JAL = 5'b11011, OP_SYSTEM = 5'b11100;
  // exception codes (mcause)
  localparam [3:0] EXC_I_MISALIGN = 4'd0, EXC_I_FAULT = 4'd1, EXC_ILLEGAL = 4'd2, EXC_BREAK = 4'd3,
                   EXC_L_MISALIGN = 4'd4, EXC_L_FAULT = 4'd5, EXC_S_MISALIGN = 4'd6, EXC_S_FAULT = 4'd7,
                   EXC_ECALL = 4'd11;
  localparam [3:0] INT_SOFT = 4'd3, INT_TIMER = 4'd7, INT_EXT = 4'd11;

  // ---- fetch / execute state --------------------------------------------------------------
  reg [31:0] pc_f;      // address fetched next when the stage advances without a redirect
  reg [31:0] pc_e;      // address of the instruction in execute
  reg e_valid;          // an instruction is in execute
  reg e_ferr;           // it was fetched from outside IMEM
  reg e_started;        // it has been in execute for more than one cycle
  wire [31:0] insn = imem_rdata;

  // ---- decode -----------------------------------------------------------------------------
  wire [4:0] opc = insn[6:2];
  wire [2:0] f3 = insn[14:12];
  wire [6:0] f7 = insn[31:25];
  wire [4:0] rd = insn[11:7], rs1 = insn[19:15], rs2 = insn[24:20];
  wire quad = insn[1:0] == 2'b11;
  wire is_load = quad && opc == OP_LOAD;
  wire is_store = quad && opc == OP_STORE;
  wire is_opimm = quad && opc == OP_OP_IMM;
  wire is_op = quad && opc == OP_OP;
  wire is_lui = quad && opc == OP_LUI;
  wire is_auipc = quad && opc == OP_AUIPC;
  wire is_jal = quad && opc == OP_JAL;
  wire is_jalr = quad && opc == OP_JALR;
  wire is_branch = quad && opc == OP_BRANCH;
  wire is_system = quad && opc == OP_SYSTEM;
  wire is_muldiv = is_op && f7 == 7'b0000001;
  wire is_mul = is_muldiv && !f3[2];
  wire is_div = is_muldiv && f3[2];
  wire is_csr = is_system && f3[1:0] != 2'b00;
  wire is_ecall = is_system && insn[31:7] == 25'h0000000;
  wire is_ebreak = is_system && insn[31:7] == 25'h0002000;
  wire is_mret = is_system && insn[31:7] == 25'h0604000;
  wire is_wfi = is_system && insn[31:7] == 25'h020a000;

  // legal encodings of RV32IM + Zicsr + Zifencei + machine mode
  reg legal;
  always @(*) begin
    legal = 1'b0;
    if (quad)
      case (opc)
        OP_LUI, OP_AUIPC, OP_JAL: legal = 1'b1;
        OP_JALR: legal = f3 == 3'b000;
        OP_BRANCH: legal = f3[2:1] != 2'b01;
        OP_LOAD: legal = f3 == 3'b000 || f3 == 3'b001 || f3 == 3'b010 || f3 == 3'b100 || f3 == 3'b101;
        OP_STORE: legal = f3 == 3'b000 || f3 == 3'b001 || f3 == 3'b010;
        OP_OP_IMM:
        if (f3 == 3'b001) legal = f7 == 7'b0000000;
        else if (f3 == 3'b101) legal = f7 == 7'b0000000 || f7 == 7'b0100000;
        else legal = 1'b1;
        OP_OP:
        legal = f7 == 7'b0000000 || f7 == 7'b0000001 || (f7 == 7'b0100000 && (f3 == 3'b000 || f3 == 3'b101));
        OP_MISC_MEM: legal = f3 == 3'b000 || f3 == 3'b001;
        OP_SYSTEM: legal = (f3 != 3'b000 && f3 != 3'b100) || is_ecall || is_ebreak || is_mret || is_wfi;
        default: legal = 1'b0;
      endcase
  end

  // immediates
  wire [31:0] imm_i = {{20{insn[31]}}, insn[31:20]};
  wire [31:0] imm_s = {{20{insn[31]}}, insn[31:25], insn[11:7]};
  wire [31:0] imm_b = {{19{insn[31]}}, insn[31], insn[7], insn[30:25], insn[11:8], 1'b0};
  wire [31:0] imm_u = {insn[31:12], 12'd0};
  wire [31:0] imm_j = {{11{insn[31]}}, insn[31], insn[19:12], insn[20], insn[30:21], 1'b0};

  // ---- register file ----------------------------------------------------------------------
  reg [31:0] regs[0:31];   // x0 is never written; its reads are forced to 0
  wire [31:0] rs1_val = rs1 == 5'd0 ? 32'd0 : regs[rs1];
  wire [31:0] rs2_val = rs2 == 5'd0 ? 32'd0 : regs[rs2];

  // ---- ALU --------------------------------------------------------------------------------
  // One adder: add, or subtract for SUB, SLT[I][U] and the branch compares
  // (rs1 - b, where sum[32] = 1 means no borrow: rs1 >= b unsigned).
  wire [31:0] alu_b = (is_op || is_branch) ? rs2_val : imm_i;
  wire alu_cmp = is_branch || f3[2:1] == 2'b01;
  wire alu_sub = (is_op && f7[5]) || alu_cmp;
  wire [32:0] sum = {1'b0, rs1_val} + {1'b0, alu_sub ? ~alu_b : alu_b} + {32'd0, alu_sub};
  wire lt_unsigned = !sum[32];
  wire lt_signed = rs1_val[31] != alu_b[31] ? rs1_val[31] : lt_unsigned;
  wire slt_result = BAD_DECODE != 0 ? lt_unsigned : lt_signed;   // BAD_DECODE: the planted bug
  wire [4:0] shamt = alu_b[4:0];
  wire [31:0] shift_l = rs1_val << shamt;
  wire signed [32:0] sra_in = {f7[5] & rs1_val[31], rs1_val};
  wire signed [32:0] sra_out = sra_in >>> shamt;
  wire [31:0] shift_r = sra_out[31:0];
  reg [31:0] alu_out;
  always @(*) begin
    case (f3)
      3'b000: alu_out = sum[31:0];
      3'b001: alu_out = shift_l;
      3'b010: alu_out = {31'd0, slt_result};
      3'b011: alu_out = {31'd0, lt_unsigned};
      3'b100: alu_out = rs1_val ^ alu_b;
      3'b101: alu_out = shift_r;
      3'b110: alu_out = rs1_val | alu_b;
      default: alu_out = rs1_val & alu_b;
    endcase
  end

  // ---- branches and jumps -------------------------------------------------------------------
  wire br_eq = rs1_val == rs2_val;
  wire br_ltu = lt_unsigned;
  wire br_lt = lt_signed;
  reg br_cond;
  always @(*) begin
    case (f3)
      3'b000: br_cond = br_eq;
      3'b001: br_cond = !br_eq;
      3'b100: br_cond = br_lt;
      3'b101: br_cond = !br_lt;
      3'b110: br_cond = br_ltu;
      default: br_cond = !br_ltu;  // 111 (010, 011 are illegal)
    endcase
  end
  wire [31:0] pc_plus4 = pc_f;   // pc_f is always pc_e + 4 while an instruction executes
  // pc-relative: JAL, branches, AUIPC
  wire [31:0] pc_rel = pc_e + (is_jal ? imm_j : is_branch ? imm_b : imm_u);
  // rs1 + immediate: loads, stores, JALR
  wire [31:0] agu = rs1_val + (is_store ? imm_s : imm_i);
  wire [31:0] jump_target = is_jalr ? {agu[31:1], 1'b0} : pc_rel;
  wire jump = is_jal || is_jalr || (is_branch && br_cond);
  wire jump_misaligned = jump && jump_target[1];

  // ---- loads and stores -----------------------------------------------------------------------
  wire [31:0] mem_addr = agu;
  wire mem_misaligned = (f3[1:0] == 2'b01 && mem_addr[0]) || (f3[1:0] == 2'b10 && mem_addr[1:0] != 2'b00);
  reg [3:0] st_strb;
  always @(*) begin
    case (f3[1:0])
      2'b00: st_strb = 4'b0001 << mem_addr[1:0];
      2'b01: st_strb = mem_addr[1] ? 4'b1100 : 4'b0011;
      default: st_strb = 4'b1111;
    endcase
  end
  wire [31:0] st_data = f3[1:0] == 2'b00 ? {4{rs2_val[7:0]}} : f3[1:0] == 2'b01 ? {2{rs2_val[15:0]}} : rs2_val;
  wire [31:0] ld_word = dbus_rdata >> {mem_addr[1:0], 3'b000};
  reg [31:0] ld_val;
  always @(*) begin
    case (f3)
      3'b000: ld_val = {{24{ld_word[7]}}, ld_word[7:0]};
      3'b001: ld_val = {{16{ld_word[15]}}, ld_word[15:0]};
      3'b100: ld_val = {24'd0, ld_word[7:0]};
      3'b101: ld_val = {16'd0, ld_word[15:0]};
      default: ld_val = ld_word;
    endcase
  end

  // ---- CSRs -----------------------------------------------------------------------------------
  reg mstatus_mie, mstatus_mpie;
  reg mie_meie, mie_mtie, mie_msie;
  reg [31:2] mtvec;
  reg [31:0] mscratch;
  reg [31:2] mepc;
  reg mcause_int;
  reg [3:0] mcause_code;
  reg [31:0] mtval;
  reg [63:0] mcycle, minstret;
  wire [2:0] mip = {irq_ext, irq_timer, irq_soft};       // MEIP, MTIP, MSIP
  wire [2:0] mie_bits = {mie_meie, mie_mtie, mie_msie};
  wire [2:0] irq_pend = mip & mie_bits;

  wire [11:0] csr_num = insn[31:20];
  wire [31:0] csr_src = f3[2] ? {27'd0, rs1} : rs1_val;
  wire csr_writes = f3[1:0] == 2'b01 || rs1 != 5'd0;   // CSRRW always; CSRRS/C unless x0 / uimm 0
  reg [31:0] csr_rdata;
  reg csr_known, csr_ro;
  always @(*) begin
    csr_rdata = 32'd0;
    csr_known = 1'b1;
    csr_ro = csr_num[11:10] == 2'b11;
    case (csr_num)
      12'h300: csr_rdata = {19'd0, 2'b11, 3'd0, mstatus_mpie, 3'd0, mstatus_mie, 3'd0};  // mstatus
      12'h301: csr_rdata = 32'h4000_1100;                       // misa: RV32IM (writes ignored)
      12'h304: csr_rdata = {20'd0, mie_meie, 3'd0, mie_mtie, 3'd0, mie_msie, 3'd0};
      12'h305: csr_rdata = {mtvec, 2'b00};
      12'h310: csr_rdata = 32'd0;                               // mstatush
      12'h340: csr_rdata = mscratch;
      12'h341: csr_rdata = {mepc, 2'b00};
      12'h342: csr_rdata = {mcause_int, 27'd0, mcause_code};
      12'h343: csr_rdata = mtval;
      12'h344: csr_rdata = {20'd0, mip[2], 3'd0, mip[1], 3'd0, mip[0], 3'd0};  // mip (writes ignored)
      12'hB00, 12'hC00, 12'hC01: csr_rdata = mcycle[31:0];    // time = mtime = mcycle
      12'hB80, 12'hC80, 12'hC81: csr_rdata = mcycle[63:32];
      12'hB02, 12'hC02: csr_rdata = minstret[31:0];
      12'hB82, 12'hC82: csr_rdata = minstret[63:32];
      12'hF11, 12'hF12, 12'hF13, 12'hF14, 12'hF15: csr_rdata = 32'd0;  // vendor, arch, impl, hart, config
      default: csr_known = 1'b0;
    endcase
  end
  reg [31:0] csr_wdata;
  always @(*) begin
    case (f3[1:0])
      2'b01: csr_wdata = csr_src;
      2'b10: csr_wdata = csr_rdata | csr_src;
      default: csr_wdata = csr_rdata & ~csr_src;
    endcase
  end
  wire csr_illegal = is_csr && (!csr_known || (csr_writes && csr_ro));

  // ---- multiply and divide ----------------------------------------------------------------------
  // MUL*: the 33 x 33 signed product registered in the first cycle, written in the second.
  wire mul_a_signed = f3[1:0] != 2'b11;   // MULH, MULHSU (and MUL)
  wire mul_b_signed = f3[1:0] == 2'b01 || f3[1:0] == 2'b00;   // MULH (and MUL)
  wire signed [32:0] mul_a = {mul_a_signed & rs1_val[31], rs1_val};
  wire signed [32:0] mul_b = {mul_b_signed & rs2_val[31], rs2_val};
  wire signed [65:0] mul_full = mul_a * mul_b;
  reg [63:0] mul_q;
  reg mul_busy;
  always @(posedge clk) mul_q <= mul_full[63:0];
  wire [31:0] mul_result = f3[1:0] == 2'b00 ? mul_q[31:0] : mul_q[63:32];

  // ---- execute control -------------------------------------------------------------------------
  wire take_irq = e_valid && !e_started && mstatus_mie && irq_pend != 3'd0;
  wire [3:0] irq_code = irq_pend[2] ? INT_EXT : irq_pend[0] ? INT_SOFT : INT_TIMER;
  // exceptions known in the first cycle
  wire illegal = !legal || csr_illegal;
  wire exc_now = e_ferr || illegal || is_ecall || is_ebreak || jump_misaligned ||
                 ((is_load || is_store) && mem_misaligned);
  reg [3:0] exc_code;
  always @(*) begin
    if (e_ferr) exc_code = EXC_I_FAULT;
    else if (illegal) exc_code = EXC_ILLEGAL;
    else if (is_ecall) exc_code = EXC_ECALL;
    else if (is_ebreak) exc_code = EXC_BREAK;
    else if (jump_misaligned) exc_code = EXC_I_MISALIGN;
    else if (is_load) exc_code = EXC_L_MISALIGN;
    else exc_code = EXC_S_MISALIGN;
  end
  wire div_done;
  wire [31:0] div_result;
  wire div_start = e_valid && is_div && !e_started && !take_irq && !exc_now;
  kolo_sp_div u_div (
      .clk(clk),
      .rst(rst),
      .start(div_start),
      .is_signed(!f3[0]),
      .want_rem(f3[1]),
      .dividend(rs1_val),
      .divisor(rs2_val),
      .done(div_done),
      .result(div_result)
  );

  wire mem_op = e_valid && (is_load || is_store) && !take_irq && !exc_now;
  assign dbus_valid = mem_op;
  assign dbus_write = is_store;
  assign dbus_addr = mem_addr;
  assign dbus_wdata = st_data;
  assign dbus_wstrb = is_store ? st_strb : 4'd0;
  wire bus_fault = mem_op && dbus_done && dbus_err;

  reg done;
  always @(*) begin
    if (!e_valid || take_irq || exc_now) done = 1'b1;
    else if (is_load || is_store) done = dbus_done;
    else if (is_mul) done = mul_busy;
    else if (is_div) done = div_done;
    else if (is_wfi) done = irq_pend != 3'd0;
    else done = 1'b1;
  end
  wire complete = e_valid && done;
  wire trap = e_valid && (take_irq || exc_now || bus_fault);
  wire retire = complete && !trap;
  wire mret = retire && is_mret;
  wire [3:0] trap_code = take_irq ? irq_code : exc_now ? exc_code : is_load ? EXC_L_FAULT : EXC_S_FAULT;
  reg [31:0] trap_tval;
  always @(*) begin
    if (take_irq) trap_tval = 32'd0;
    else if (e_ferr) trap_tval = pc_e;
    else if (illegal) trap_tval = insn;
    else if (is_ecall) trap_tval = 32'd0;
    else if (is_ebreak) trap_tval = pc_e;
    else if (jump_misaligned) trap_tval = jump_target;
    else trap_tval = mem_addr;
  end

  // write back
  wire writes_rd = is_lui || is_auipc || is_jal || is_jalr || is_opimm || is_op || is_load || is_csr;
  reg [31:0] wb_data;
  always @(*) begin
    if (is_lui) wb_data = imm_u;
    else if (is_auipc) wb_data = pc_rel;
    else if (is_jal || is_jalr) wb_data = pc_plus4;
    else if (is_load) wb_data = ld_val;
    else if (is_csr) wb_data = csr_rdata;
    else if (is_mul) wb_data = mul_result;
    else if (is_div) wb_data = div_result;
    else wb_data = alu_out;
  end
  wire rd_we = retire && writes_rd && rd != 5'd0;
  always @(posedge clk) if (rd_we) regs[rd] <= wb_data;

  // next pc
  wire redirect = trap || mret || (retire && jump);
  wire [31:0] redirect_pc = trap ? {mtvec, 2'b00} : mret ? {mepc, 2'b00} : jump_target;
  wire advance = !e_valid || complete;
  assign imem_en = advance;
  assign imem_addr = redirect ? redirect_pc : pc_f;
  wire fetch_in_imem = imem_addr >= IMEM_BASE && imem_addr - IMEM_BASE < IMEM_BYTES;

  always @(posedge clk) begin
    if (rst) begin
      pc_f <= RESET_PC;
      pc_e <= RESET_PC;
      e_valid <= 1'b0;
      e_ferr <= 1'b0;
      e_started <= 1'b0;
      mul_busy <= 1'b0;
    end else begin
      if (advance) begin
        pc_e <= imem_addr;
        pc_f <= imem_addr + 32'd4;
        e_valid <= 1'b1;
        e_ferr <= !fetch_in_imem;
      end
      e_started <= e_valid && !complete;
      mul_busy <= e_valid && is_mul && !mul_busy && !take_irq && !exc_now;
    end
  end

  // CSR and trap state
  wire csr_we = retire && is_csr && csr_writes;
  always @(posedge clk) begin
    if (rst) begin
      mstatus_mie <= 1'b0;
      mstatus_mpie <= 1'b0;
      mie_meie <= 1'b0;
      mie_mtie <= 1'b0;
      mie_msie <= 1'b0;
      mtvec <= RESET_PC[31:2];
      mcause_int <= 1'b0;
      mcause_code <= 4'd0;
      mcycle <= 64'd0;
      minstret <= 64'd0;
      fault <= 1'b0;
    end else begin
      mcycle <= mcycle + 64'd1;
      if (retire) minstret <= minstret + 64'd1;
      if (csr_we)
        case (csr_num)
          12'h300: begin
            mstatus_mie <= csr_wdata[3];
            mstatus_mpie <= csr_wdata[7];
          end
          12'h304: begin
            mie_meie <= csr_wdata[11];
            mie_mtie <= csr_wdata[7];
            mie_msie <= csr_wdata[3];
          end
          12'h305: mtvec <= csr_wdata[31:2];
          12'h342: begin
            mcause_int <= csr_wdata[31];
            mcause_code <= csr_wdata[3:0];
          end
          12'hB00: mcycle[31:0] <= csr_wdata;
          12'hB80: mcycle[63:32] <= csr_wdata;
          12'hB02: minstret[31:0] <= csr_wdata;
          12'hB82: minstret[63:32] <= csr_wdata;
          default: ;
        endcase
      if (trap) begin
        mstatus_mpie <= mstatus_mie;
        mstatus_mie <= 1'b0;
        mcause_int <= take_irq;
        mcause_code <= trap_code;
      end else if (mret) begin
        mstatus_mie <= mstatus_mpie;
        mstatus_mpie <= 1'b1;
      end
      fault <= trap && !take_irq && trap_code != EXC_BREAK && trap_code != EXC_ECALL;
    end
    if (csr_we)
      case (csr_num)
        12'h340: mscratch <= csr_wdata;
        12'h341: mepc <= csr_wdata[31:2];
        12'h343: mtval <= csr_wdata;
        default: ;
      endcase
    if (trap) begin
      mepc <= pc_e[31:2];
      mtval <= trap_tval;
      fault_cause <= trap_code;
      fault_pc <= pc_e;
    end
  end

  assign cycles = mcycle;

  // ---- trace (TRACE = 0: all zero, no logic) ---------------------------------------------------------
  generate
    if (TRACE != 0) begin : g_trace
      assign trace_valid = complete;
      assign trace_trap = trap;
      assign trace_cause = {take_irq, 27'd0, trap_code};
      assign trace_pc = pc_e;
      assign trace_insn = insn;
      assign trace_rd = rd_we ? rd : 5'd0;
      assign trace_rd_data = rd_we ? wb_data : 32'd0;
      assign trace_mem_addr = (is_load || is_store) && !trap ? mem_addr : 32'd0;
      assign trace_mem_wstrb = is_store && !trap ? st_strb : 4'd0;
      assign trace_mem_wdata = is_store && !trap ? st_data : 32'd0;
    end else begin : g_no_trace
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
    end
  endgenerate

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, sra_out[32], mul_full[65:64], agu[0]};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
