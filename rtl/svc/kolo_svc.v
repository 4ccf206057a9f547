`default_nettype none
// kolo_svc - the service block of one node: the registers of
// rtl/regs/kolo_svc_regs.toml (docs/registers.md, docs/svc.md) behind two
// 32-bit AXI4-Lite slave ports, s_axil_* (service processor) and h_axil_*
// (host, BAR0), and the state they show and steer: link status, counters
// and events (kolo_svc_link), router counters, the cycle counter, the event
// FIFO (kolo_svc_evt) and interrupt, the double-buffered NI routing table
// with its lookup port (kolo_svc_rt), the management mailbox
// (kolo_svc_mbx_tx, kolo_svc_mbx_rx) and the host mailbox (kolo_svc_hmbox:
// 64 words both the service processor and the host read and write).
// sw/model/kolo_svc_model.c is its reference: tb/unit/svc compares the two
// register for register.
//
// Bus: one access at a time (kolo_svc_axil arbitrates round robin). The
// access is decoded in the cycle after its address handshake, executes in
// the next (the "exec" cycle: every read sees the state before it, every
// side effect lands at its clock edge), its data is gathered in the next,
// and the response is offered from the cycle after: BVALID/RVALID 4 cycles
// after the handshake without waits, 5 cycles per access. An access to the
// shadow table or a write of RT_EPOCH waits while the table is being copied
// after a switch; an access to the host mailbox waits while it is being
// cleared after rst (its first 64 cycles).
// SLVERR, counted in BAD_ACCESS: a misaligned address, a write whose WSTRB
// is not 4'hF, an unmapped address, a write to a read-only register.
// SLVERR, counted in HOST_REFUSED (checked after the above): a host write
// while SYS_HOST_ACCESS.WRITE_EN is 0, or to HOST_ACCESS itself. Host reads
// are always served.
// Order within one clock edge, as one sequential model: the bus access,
// then a mailbox tail (packet stored or dropped), then one event action of
// kolo_svc_link (never in a cycle with a bus access or a mailbox event),
// then counter pulses.
// Inputs: straps node_id and dim_m1 ({z,y,x} ring sizes - 1); link status
// and one-cycle counter pulses per port; the router's counters as values
// (rtr_local_drops: the local port's drain where no NI is built, kolo_node);
// ni_unreachable pulses count RT_UNREACHABLE. irq (registered) is the OR
// of the enabled IRQ_STATUS bits. sp_fault (a pulse from the service
// processor, kolo_sp, with its cause and pc; pulses at least 2 cycles apart,
// an error guard checks it) raises the SP_FAULT event and counts in
// SYS_SP_FAULTS: registered once, it acts in the next cycle without a
// mailbox event (at most one cycle later), as one step of the sequential
// model after the mailbox tail; the link sequencer waits in that cycle.
module kolo_svc #(
    parameter ADDR_W = 15,                 // must span KOLO_SVC_SPACE (checked)
    parameter [63:0] TIME_RESET = 64'd0    // SYS_TIME after reset (tests start it near a carry)
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [11:0]       node_id,
    input  wire [11:0]       dim_m1,
    // service processor bus
    input  wire              s_axil_awvalid,
    output wire              s_axil_awready,
    input  wire [ADDR_W-1:0] s_axil_awaddr,
    input  wire              s_axil_wvalid,
    output wire              s_axil_wready,
    input  wire [31:0]       s_axil_wdata,
    input  wire [3:0]        s_axil_wstrb,
    output wire              s_axil_bvalid,
    input  wire              s_axil_bready,
    output wire [1:0]        s_axil_bresp,
    input  wire              s_axil_arvalid,
    output wire              s_axil_arready,
    input  wire [ADDR_W-1:0] s_axil_araddr,
    output wire              s_axil_rvalid,
    input  wire              s_axil_rready,
    output wire [31:0]       s_axil_rdata,
    output wire [1:0]        s_axil_rresp,
    // host bus (BAR0)
    input  wire              h_axil_awvalid,
    output wire              h_axil_awready,
    input  wire [ADDR_W-1:0] h_axil_awaddr,
    input  wire              h_axil_wvalid,
    output wire              h_axil_wready,
    input  wire [31:0]       h_axil_wdata,
    input  wire [3:0]        h_axil_wstrb,
    output wire              h_axil_bvalid,
    input  wire              h_axil_bready,
    output wire [1:0]        h_axil_bresp,
    input  wire              h_axil_arvalid,
    output wire              h_axil_arready,
    input  wire [ADDR_W-1:0] h_axil_araddr,
    output wire              h_axil_rvalid,
    input  wire              h_axil_rready,
    output wire [31:0]       h_axil_rdata,
    output wire [1:0]        h_axil_rresp,
    // links (port p = X+ X- Y+ Y- Z+ Z-)
    input  wire [5:0]        link_up,
    input  wire [5:0]        link_peer_valid,
    input  wire [6*12-1:0]   link_peer_id,
    input  wire [6*3-1:0]    link_peer_port,
    input  wire [5:0]        link_crc_err,
    input  wire [5:0]        link_replay,
    input  wire [5:0]        link_tx_frame,
    input  wire [5:0]        link_rx_frame,
    output wire [5:0]        link_enable,
    output wire [5:0]        link_loopback,
    // router
    input  wire [5:0]        rtr_port_down,
    input  wire [31:0]       rtr_drop_route,
    input  wire [31:0]       rtr_drop_bad,
    input  wire [31:0]       rtr_fault_drops,
    input  wire [31:0]       rtr_local_drops,   // RTR_LOCAL_DROPS (a value; 0 where an NI takes the local port)
    input  wire [7*32-1:0]   rtr_out_flits,
    output reg  [5:0]        port_en,
    // NI: routing table lookups and unreachable destinations
    input  wire              rt_lk_valid,
    input  wire [11:0]       rt_lk_id,
    output wire [31:0]       rt_lk_entry,
    output wire [15:0]       rt_epoch,
    output wire              rt_switch,
    input  wire              ni_unreachable,
    // management mailbox
    output wire              mgmt_tx_valid,
    input  wire              mgmt_tx_ready,
    output wire [65:0]       mgmt_tx_flit,
    input  wire              mgmt_rx_valid,
    output wire              mgmt_rx_ready,
    input  wire [65:0]       mgmt_rx_flit,
    // service processor faults (kolo_sp fault, fault_cause, fault_pc)
    input  wire              sp_fault,
    input  wire [3:0]        sp_fault_cause,
    input  wire [31:0]       sp_fault_pc,
    output reg               irq
);
  `include "kolo_svc_regs.vh"

  generate
    if ((64'd1 << ADDR_W) != {32'd0, `KOLO_SVC_SPACE}) begin : g_bad_addr_w
      ADDR_W_must_span_KOLO_SVC_SPACE u_error ();
    end
  endgenerate

  localparam [31:0] LINK_END = `KOLO_SVC_LINK_CTRL + `KOLO_SVC_LINK_COUNT * `KOLO_SVC_LINK_STRIDE;
  localparam LINK_SH = $clog2(`KOLO_SVC_LINK_STRIDE);
  localparam [31:0] SHADOW_END = `KOLO_SVC_RT_SHADOW_ENTRY +
                                 `KOLO_SVC_RT_SHADOW_ENTRY_COUNT * `KOLO_SVC_RT_SHADOW_ENTRY_STRIDE;
  localparam [31:0] HMBOX_END = `KOLO_SVC_HMBOX_WORD + `KOLO_SVC_HMBOX_WORD_COUNT * `KOLO_SVC_HMBOX_WORD_STRIDE;
  localparam HMBOX_AW = $clog2(`KOLO_SVC_HMBOX_WORD_COUNT);
  localparam [31:0] OUTF_END = `KOLO_SVC_RTR_OUT_FLITS + `KOLO_SVC_RTR_OUT_FLITS_COUNT * `KOLO_SVC_RTR_OUT_FLITS_STRIDE;
  localparam [31:0] EVT_MBX_OVERFLOW = {28'd0, `KOLO_SVC_EVT_MBX_OVERFLOW};
  localparam [31:0] EVT_SP_FAULT = {28'd0, `KOLO_SVC_EVT_SP_FAULT};
  localparam [31:0] PORT_EN_RESET = `KOLO_SVC_RTR_PORT_EN_RESET;

  // ---- bus front end -----------------------------------------------------------------
  wire op_valid, op_write, op_host, op_done, op_err;
  wire [ADDR_W-1:0] op_addr;
  wire [31:0] op_wdata, op_rdata;
  wire [3:0] op_strb;
  kolo_svc_axil #(
      .ADDR_W(ADDR_W)
  ) u_axil (
      .clk(clk),
      .rst(rst),
      .s_axil_awvalid(s_axil_awvalid),
      .s_axil_awready(s_axil_awready),
      .s_axil_awaddr(s_axil_awaddr),
      .s_axil_wvalid(s_axil_wvalid),
      .s_axil_wready(s_axil_wready),
      .s_axil_wdata(s_axil_wdata),
      .s_axil_wstrb(s_axil_wstrb),
      .s_axil_bvalid(s_axil_bvalid),
      .s_axil_bready(s_axil_bready),
      .s_axil_bresp(s_axil_bresp),
      .s_axil_arvalid(s_axil_arvalid),
      .s_axil_arready(s_axil_arready),
      .s_axil_araddr(s_axil_araddr),
      .s_axil_rvalid(s_axil_rvalid),
      .s_axil_rready(s_axil_rready),
      .s_axil_rdata(s_axil_rdata),
      .s_axil_rresp(s_axil_rresp),
      .h_axil_awvalid(h_axil_awvalid),
      .h_axil_awready(h_axil_awready),
      .h_axil_awaddr(h_axil_awaddr),
      .h_axil_wvalid(h_axil_wvalid),
      .h_axil_wready(h_axil_wready),
      .h_axil_wdata(h_axil_wdata),
      .h_axil_wstrb(h_axil_wstrb),
      .h_axil_bvalid(h_axil_bvalid),
      .h_axil_bready(h_axil_bready),
      .h_axil_bresp(h_axil_bresp),
      .h_axil_arvalid(h_axil_arvalid),
      .h_axil_arready(h_axil_arready),
      .h_axil_araddr(h_axil_araddr),
      .h_axil_rvalid(h_axil_rvalid),
      .h_axil_rready(h_axil_rready),
      .h_axil_rdata(h_axil_rdata),
      .h_axil_rresp(h_axil_rresp),
      .op_valid(op_valid),
      .op_write(op_write),
      .op_addr(op_addr),
      .op_wdata(op_wdata),
      .op_host(op_host),
      .op_strb(op_strb),
      .op_done(op_done),
      .op_err(op_err),
      .op_rdata(op_rdata)
  );

  // ---- decode ----------------------------------------------------------------------------
  // The access is decoded in its first cycle on op_* (dec_done low) and the
  // verdict registered; it executes from the next cycle on, so that exec
  // and its side effects depend on flip-flops only.
  wire [31:0] a = {{(32 - ADDR_W) {1'b0}}, op_addr};
  wire [31:0] link_rel = a - `KOLO_SVC_LINK_CTRL;
  wire in_link = a >= `KOLO_SVC_LINK_CTRL && a < LINK_END;
  wire in_shadow = a >= `KOLO_SVC_RT_SHADOW_ENTRY && a < SHADOW_END;
  wire in_outf = a >= `KOLO_SVC_RTR_OUT_FLITS && a < OUTF_END;
  wire in_hmbox = a >= `KOLO_SVC_HMBOX_WORD && a < HMBOX_END;
  wire [31:0] link_off = {{(32 - LINK_SH) {1'b0}}, link_rel[LINK_SH-1:0]};
  wire link_rd_hit, link_wr_hit;
  reg dec_done;
  wire dec = op_valid && !dec_done;

  reg rd_ok, wr_ok;
  always @(*) begin
    case (a)
      `KOLO_SVC_SYS_SCRATCH, `KOLO_SVC_SYS_HOST_ACCESS, `KOLO_SVC_SYS_FW_STATE, `KOLO_SVC_SYS_FW_HEARTBEAT,
      `KOLO_SVC_RTR_PORT_EN, `KOLO_SVC_RT_EPOCH, `KOLO_SVC_EVT_IRQ_EN, `KOLO_SVC_EVT_CTRL,
      `KOLO_SVC_MBX_TX_DST, `KOLO_SVC_MBX_TX_RS, `KOLO_SVC_MBX_TX_DATA, `KOLO_SVC_MBX_TX_SEND,
      `KOLO_SVC_MBX_RX_POP: wr_ok = 1'b1;
      default: wr_ok = in_shadow || in_hmbox || (in_link && link_wr_hit);
    endcase
    case (a)
      `KOLO_SVC_SYS_ID, `KOLO_SVC_SYS_VERSION, `KOLO_SVC_SYS_NODE_ID, `KOLO_SVC_SYS_TORUS,
      `KOLO_SVC_SYS_SCRATCH, `KOLO_SVC_SYS_HOST_ACCESS, `KOLO_SVC_SYS_HOST_REFUSED, `KOLO_SVC_SYS_BAD_ACCESS,
      `KOLO_SVC_SYS_TIME_LO, `KOLO_SVC_SYS_TIME_HI, `KOLO_SVC_SYS_FW_STATE, `KOLO_SVC_SYS_FW_HEARTBEAT,
      `KOLO_SVC_SYS_SP_FAULTS, `KOLO_SVC_SYS_SP_FAULT_PC, `KOLO_SVC_SYS_SP_FAULT_CAUSE,
      `KOLO_SVC_RTR_PORT_EN, `KOLO_SVC_RTR_PORT_DOWN, `KOLO_SVC_RTR_DROP_ROUTE, `KOLO_SVC_RTR_DROP_BAD,
      `KOLO_SVC_RTR_FAULT_DROPS, `KOLO_SVC_RTR_LOCAL_DROPS, `KOLO_SVC_RT_EPOCH, `KOLO_SVC_RT_ENTRIES,
      `KOLO_SVC_RT_SWITCHES, `KOLO_SVC_RT_UNREACHABLE, `KOLO_SVC_EVT_STATUS, `KOLO_SVC_EVT_DATA, `KOLO_SVC_EVT_IRQ_EN,
      `KOLO_SVC_EVT_IRQ_STATUS, `KOLO_SVC_EVT_LOST, `KOLO_SVC_EVT_CTRL, `KOLO_SVC_MBX_TX_DST,
      `KOLO_SVC_MBX_TX_RS, `KOLO_SVC_MBX_TX_DATA, `KOLO_SVC_MBX_TX_SEND, `KOLO_SVC_MBX_TX_STATUS,
      `KOLO_SVC_MBX_TX_COUNT, `KOLO_SVC_MBX_TX_ERRORS, `KOLO_SVC_MBX_RX_STATUS, `KOLO_SVC_MBX_RX_SRC,
      `KOLO_SVC_MBX_RX_DATA, `KOLO_SVC_MBX_RX_POP, `KOLO_SVC_MBX_RX_COUNT, `KOLO_SVC_MBX_RX_DROPS:
        rd_ok = 1'b1;
      default: rd_ok = in_shadow || in_hmbox || in_outf || (in_link && link_rd_hit);
    endcase
  end

  reg host_access;
  wire form_bad = op_addr[1:0] != 2'b00 || (op_write && op_strb != 4'hF);
  wire refused = !form_bad && op_host && op_write && (a == `KOLO_SVC_SYS_HOST_ACCESS || !host_access);
  wire unmapped = !form_bad && !refused && !(op_write ? wr_ok : rd_ok);
  // the verdict, and the registers whose access does more than read or store
  reg bad_q, refused_q, table_q, hmbox_q;
  reg sel_time_lo_q, sel_evt_data_q, sel_rx_data_q, sel_rx_pop_q, sel_tx_data_q, sel_tx_send_q, sel_epoch_q,
      sel_evt_ctrl_q;
  always @(posedge clk) begin
    if (rst) dec_done <= 1'b0;
    else dec_done <= op_valid && !op_done;
    if (dec) begin
      bad_q <= form_bad || unmapped;
      refused_q <= refused;
      // accesses that wait for the table copy
      table_q <= in_shadow || (op_write && a == `KOLO_SVC_RT_EPOCH);
      // accesses that wait for the mailbox clear
      hmbox_q <= in_hmbox;
      sel_time_lo_q <= a == `KOLO_SVC_SYS_TIME_LO;
      sel_evt_data_q <= a == `KOLO_SVC_EVT_DATA;
      sel_rx_data_q <= a == `KOLO_SVC_MBX_RX_DATA;
      sel_rx_pop_q <= a == `KOLO_SVC_MBX_RX_POP;
      sel_tx_data_q <= a == `KOLO_SVC_MBX_TX_DATA;
      sel_tx_send_q <= a == `KOLO_SVC_MBX_TX_SEND;
      sel_epoch_q <= a == `KOLO_SVC_RT_EPOCH;
      sel_evt_ctrl_q <= a == `KOLO_SVC_EVT_CTRL;
    end
  end

  // ---- execute ------------------------------------------------------------------------------
  wire [31:0] shadow_rel = a - `KOLO_SVC_RT_SHADOW_ENTRY;
  wire [31:0] outf_rel = a - `KOLO_SVC_RTR_OUT_FLITS;
  wire [31:0] hmbox_rel = a - `KOLO_SVC_HMBOX_WORD;
  wire [2:0] link_port = link_rel[LINK_SH+:3];
  wire [11:0] shadow_idx = shadow_rel[13:2];
  wire [2:0] outf_idx = outf_rel[4:2];
  wire [HMBOX_AW-1:0] hmbox_idx = hmbox_rel[HMBOX_AW+1:2];
  wire unused_rel = |{link_rel[31:LINK_SH+3], shadow_rel[31:14], shadow_rel[1:0], outf_rel[31:5], outf_rel[1:0],
                      hmbox_rel[31:HMBOX_AW+2], hmbox_rel[1:0]};

  wire [31:0] link_rd_data;
  wire rt_copying, hm_clearing;
  reg data_q, err_q, ram_shadow_q, ram_hmbox_q, ram_rx_q;
  reg [31:0] rd_mux_q;
  wire stall = (rt_copying && table_q) || (hm_clearing && hmbox_q);
  wire exec = op_valid && dec_done && !data_q && !stall;
  wire err = bad_q || refused_q;
  wire act = exec && !err;                // the access takes effect
  wire wr = act && op_write, rd = act && !op_write;
  wire wr_reg_scratch = wr && a == `KOLO_SVC_SYS_SCRATCH;
  wire wr_reg_host = wr && a == `KOLO_SVC_SYS_HOST_ACCESS;
  wire wr_reg_fw_state = wr && a == `KOLO_SVC_SYS_FW_STATE;
  wire wr_reg_heartbeat = wr && a == `KOLO_SVC_SYS_FW_HEARTBEAT;
  wire wr_reg_port_en = wr && a == `KOLO_SVC_RTR_PORT_EN;
  wire wr_reg_irq_en = wr && a == `KOLO_SVC_EVT_IRQ_EN;
  wire wr_reg_tx_dst = wr && a == `KOLO_SVC_MBX_TX_DST;
  wire wr_reg_tx_rs = wr && a == `KOLO_SVC_MBX_TX_RS;
  wire wr_reg_epoch = wr && sel_epoch_q;
  wire wr_reg_evt_ctrl = wr && sel_evt_ctrl_q;
  wire wr_reg_tx_data = wr && sel_tx_data_q;
  wire wr_reg_tx_send = wr && sel_tx_send_q;
  wire wr_reg_rx_pop = wr && sel_rx_pop_q;
  wire rd_time_lo = rd && sel_time_lo_q;
  wire rd_evt_data = rd && sel_evt_data_q;
  wire rd_rx_data = rd && sel_rx_data_q;
  wire sh_access = act && table_q && !sel_epoch_q;
  wire hm_access = act && hmbox_q;

  // ---- SYS and RTR registers ----------------------------------------------------------------
  reg [31:0] scratch, host_refused, bad_access, fw_state, fw_heartbeat, time_hi_latched, unreachable;
  reg [63:0] cycles;
  reg [1:0] irq_en;
  reg [11:0] tx_dst;
  reg [22:0] tx_rs;
  always @(posedge clk) begin
    if (rst) begin
      scratch <= 32'd0;
      host_access <= 1'b0;
      host_refused <= 32'd0;
      bad_access <= 32'd0;
      fw_state <= 32'd0;
      fw_heartbeat <= 32'd0;
      time_hi_latched <= 32'd0;
      cycles <= TIME_RESET;
      port_en <= PORT_EN_RESET[5:0];
      irq_en <= 2'd0;
      tx_dst <= 12'd0;
      tx_rs <= 23'd0;
      unreachable <= 32'd0;
    end else begin
      cycles <= cycles + 64'd1;
      if (exec && refused_q) host_refused <= host_refused + 32'd1;
      if (exec && bad_q) bad_access <= bad_access + 32'd1;
      if (wr_reg_scratch) scratch <= op_wdata;
      if (wr_reg_host) host_access <= op_wdata[`KOLO_SVC_SYS_HOST_ACCESS_WRITE_EN_LO];
      if (wr_reg_fw_state) fw_state <= op_wdata;
      if (wr_reg_heartbeat) fw_heartbeat <= op_wdata;
      if (wr_reg_port_en) port_en <= op_wdata[`KOLO_SVC_RTR_PORT_EN_EN_HI:`KOLO_SVC_RTR_PORT_EN_EN_LO];
      if (wr_reg_irq_en) irq_en <= op_wdata[1:0];
      if (wr_reg_tx_dst) tx_dst <= op_wdata[`KOLO_SVC_MBX_TX_DST_DST_HI:`KOLO_SVC_MBX_TX_DST_DST_LO];
      if (wr_reg_tx_rs) tx_rs <= op_wdata[`KOLO_SVC_MBX_TX_RS_RS_HI:`KOLO_SVC_MBX_TX_RS_RS_LO];
      if (rd_time_lo) time_hi_latched <= cycles[63:32];
      if (ni_unreachable) unreachable <= unreachable + 32'd1;
    end
  end

  // ---- service processor faults ---------------------------------------------------------------
  wire mbx_ovf_push;   // a mailbox event (kolo_svc_mbx_rx) in this cycle
  // The pulse is registered (sp_pend); it acts (count, last pc/cause, event)
  // in the first cycle without a mailbox event, so at most one cycle late.
  reg sp_pend;
  reg [3:0] sp_cause_q, sp_last_cause;
  reg [31:0] sp_pc_q, sp_last_pc, sp_faults;
  wire sp_act = sp_pend && !mbx_ovf_push;
  always @(posedge clk) begin
    if (rst) begin
      sp_pend <= 1'b0;
      sp_faults <= 32'd0;
      sp_last_cause <= 4'd0;
      sp_last_pc <= 32'd0;
    end else begin
      if (sp_fault) sp_pend <= 1'b1;
      else if (sp_act) sp_pend <= 1'b0;
      if (sp_act) begin
        sp_faults <= sp_faults + 32'd1;
        sp_last_cause <= sp_cause_q;
        sp_last_pc <= sp_pc_q;
      end
    end
    if (sp_fault) begin
      sp_cause_q <= sp_fault_cause;
      sp_pc_q <= sp_fault_pc;
    end
  end
`ifndef SYNTHESIS
`include "kolo_assert.vh"
  // sp_fault pulses at least 2 cycles apart (closer, one fault would be lost)
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(sp_fault && sp_pend && !sp_act));
`endif

  // ---- links --------------------------------------------------------------------------------
  wire link_evt_push;
  wire [31:0] link_evt_data;
  kolo_svc_link u_link (
      .clk(clk),
      .rst(rst),
      .node_id(node_id),
      .dim_m1(dim_m1),
      .link_up(link_up),
      .link_peer_valid(link_peer_valid),
      .link_peer_id(link_peer_id),
      .link_peer_port(link_peer_port),
      .link_crc_err(link_crc_err),
      .link_replay(link_replay),
      .link_tx_frame(link_tx_frame),
      .link_rx_frame(link_rx_frame),
      .hold(exec || mbx_ovf_push || sp_act),
      .acc_port(link_port),
      .acc_off(link_off),
      .wr_en(wr && in_link),
      .wr_data(op_wdata),
      .rd_data(link_rd_data),
      .rd_hit(link_rd_hit),
      .wr_hit(link_wr_hit),
      .link_enable(link_enable),
      .link_loopback(link_loopback),
      .evt_push(link_evt_push),
      .evt_data(link_evt_data)
  );

  // ---- events -------------------------------------------------------------------------------
  wire [11:0] mbx_ovf_src;
  wire [31:0] evt_head;
  wire [5:0] evt_count;
  wire evt_overflow;
  wire [31:0] evt_lost;
  kolo_svc_evt #(
      .DEPTH_LOG2(5)
  ) u_evt (
      .clk(clk),
      .rst(rst),
      .push(mbx_ovf_push || sp_act || link_evt_push),
      .push_data(mbx_ovf_push ? {12'd0, mbx_ovf_src, 8'd0} | EVT_MBX_OVERFLOW :
                 sp_act ? {sp_pc_q[21:2], sp_cause_q, 8'd0} | EVT_SP_FAULT : link_evt_data),
      .pop(rd_evt_data),
      .clear(wr_reg_evt_ctrl && op_wdata[`KOLO_SVC_EVT_CTRL_CLEAR_LO]),
      .head_data(evt_head),
      .count(evt_count),
      .overflow(evt_overflow),
      .lost(evt_lost)
  );

  // ---- routing table --------------------------------------------------------------------------
  wire [31:0] rt_switches, sh_rdata;
  wire [12:0] rt_entries;
  wire rt_active;
  kolo_svc_rt u_rt (
      .clk(clk),
      .rst(rst),
      .dim_m1(dim_m1),
      .rt_lk_valid(rt_lk_valid),
      .rt_lk_id(rt_lk_id),
      .rt_lk_entry(rt_lk_entry),
      .rt_epoch(rt_epoch),
      .rt_switch(rt_switch),
      .active(rt_active),
      .switches(rt_switches),
      .entries(rt_entries),
      .copying(rt_copying),
      .sh_en(sh_access),
      .sh_we(op_write),
      .sh_idx(shadow_idx),
      .sh_wdata(op_wdata),
      .sh_rdata(sh_rdata),
      .epoch_we(wr_reg_epoch),
      .epoch_data(op_wdata[`KOLO_SVC_RT_EPOCH_EPOCH_HI:`KOLO_SVC_RT_EPOCH_EPOCH_LO])
  );

  // ---- host mailbox -----------------------------------------------------------------------------
  wire [31:0] hm_rdata;
  kolo_svc_hmbox #(
      .AW(HMBOX_AW)
  ) u_hmbox (
      .clk(clk),
      .rst(rst),
      .clearing(hm_clearing),
      .en(hm_access),
      .we(op_write),
      .idx(hmbox_idx),
      .wdata(op_wdata),
      .rdata(hm_rdata)
  );

  // ---- mailbox ----------------------------------------------------------------------------------
  wire tx_busy;
  wire [6:0] tx_words;
  wire [31:0] tx_count, tx_errors;
  kolo_svc_mbx_tx u_tx (
      .clk(clk),
      .rst(rst),
      .node_id(node_id),
      .data_we(wr_reg_tx_data),
      .data_in(op_wdata),
      .send(wr_reg_tx_send),
      .dst(tx_dst),
      .rs(tx_rs),
      .busy(tx_busy),
      .words(tx_words),
      .count(tx_count),
      .errors(tx_errors),
      .mgmt_tx_valid(mgmt_tx_valid),
      .mgmt_tx_ready(mgmt_tx_ready),
      .mgmt_tx_flit(mgmt_tx_flit)
  );

  wire [31:0] rx_word, rx_total, rx_drops;
  wire [3:0] rx_pkts;
  wire [6:0] rx_left;
  wire [11:0] rx_src;
  kolo_svc_mbx_rx #(
      .PKTS(8)
  ) u_rx (
      .clk(clk),
      .rst(rst),
      .mgmt_rx_valid(mgmt_rx_valid),
      .mgmt_rx_ready(mgmt_rx_ready),
      .mgmt_rx_flit(mgmt_rx_flit),
      .rd_en(rd_rx_data),
      .rd_word(rx_word),
      .pop(wr_reg_rx_pop),
      .pkts(rx_pkts),
      .head_left(rx_left),
      .head_src(rx_src),
      .total(rx_total),
      .drops(rx_drops),
      .ovf_push(mbx_ovf_push),
      .ovf_src(mbx_ovf_src)
  );

  // ---- read data and response ----------------------------------------------------------------------
  wire [1:0] irq_status = {rx_pkts != 4'd0, evt_count != 6'd0};
  reg [31:0] rd_mux;
  always @(*) begin
    rd_mux = 32'd0;
    case (a)
      `KOLO_SVC_SYS_ID: rd_mux = `KOLO_SVC_SYS_ID_RESET;
      `KOLO_SVC_SYS_VERSION: rd_mux = `KOLO_SVC_SYS_VERSION_RESET;
      `KOLO_SVC_SYS_NODE_ID: rd_mux = {20'd0, node_id};
      `KOLO_SVC_SYS_TORUS: rd_mux = {20'd0, dim_m1};
      `KOLO_SVC_SYS_SCRATCH: rd_mux = scratch;
      `KOLO_SVC_SYS_HOST_ACCESS: rd_mux = {31'd0, host_access};
      `KOLO_SVC_SYS_HOST_REFUSED: rd_mux = host_refused;
      `KOLO_SVC_SYS_BAD_ACCESS: rd_mux = bad_access;
      `KOLO_SVC_SYS_TIME_LO: rd_mux = cycles[31:0];
      `KOLO_SVC_SYS_TIME_HI: rd_mux = time_hi_latched;
      `KOLO_SVC_SYS_FW_STATE: rd_mux = fw_state;
      `KOLO_SVC_SYS_FW_HEARTBEAT: rd_mux = fw_heartbeat;
      `KOLO_SVC_SYS_SP_FAULTS: rd_mux = sp_faults;
      `KOLO_SVC_SYS_SP_FAULT_PC: rd_mux = sp_last_pc;
      `KOLO_SVC_SYS_SP_FAULT_CAUSE: rd_mux = {28'd0, sp_last_cause};
      `KOLO_SVC_RTR_PORT_EN: rd_mux = {26'd0, port_en};
      `KOLO_SVC_RTR_PORT_DOWN: rd_mux = {26'd0, rtr_port_down};
      `KOLO_SVC_RTR_DROP_ROUTE: rd_mux = rtr_drop_route;
      `KOLO_SVC_RTR_DROP_BAD: rd_mux = rtr_drop_bad;
      `KOLO_SVC_RTR_FAULT_DROPS: rd_mux = rtr_fault_drops;
      `KOLO_SVC_RTR_LOCAL_DROPS: rd_mux = rtr_local_drops;
      `KOLO_SVC_RT_EPOCH: rd_mux = {15'd0, rt_active, rt_epoch};
      `KOLO_SVC_RT_ENTRIES: rd_mux = {19'd0, rt_entries};
      `KOLO_SVC_RT_SWITCHES: rd_mux = rt_switches;
      `KOLO_SVC_RT_UNREACHABLE: rd_mux = unreachable;
      `KOLO_SVC_EVT_STATUS: rd_mux = {evt_overflow, 23'd0, 2'd0, evt_count};
      `KOLO_SVC_EVT_DATA: rd_mux = evt_head;
      `KOLO_SVC_EVT_IRQ_EN: rd_mux = {30'd0, irq_en};
      `KOLO_SVC_EVT_IRQ_STATUS: rd_mux = {30'd0, irq_status};
      `KOLO_SVC_EVT_LOST: rd_mux = evt_lost;
      `KOLO_SVC_MBX_TX_DST: rd_mux = {20'd0, tx_dst};
      `KOLO_SVC_MBX_TX_RS: rd_mux = {9'd0, tx_rs};
      `KOLO_SVC_MBX_TX_STATUS: rd_mux = {16'd0, 1'b0, tx_words, 7'd0, tx_busy};
      `KOLO_SVC_MBX_TX_COUNT: rd_mux = tx_count;
      `KOLO_SVC_MBX_TX_ERRORS: rd_mux = tx_errors;
      `KOLO_SVC_MBX_RX_STATUS: rd_mux = {9'd0, rx_left, 12'd0, rx_pkts};
      `KOLO_SVC_MBX_RX_SRC: rd_mux = {20'd0, rx_src};
      `KOLO_SVC_MBX_RX_COUNT: rd_mux = rx_total;
      `KOLO_SVC_MBX_RX_DROPS: rd_mux = rx_drops;
      default: begin
        if (in_link) rd_mux = link_rd_data;
        if (in_outf) rd_mux = rtr_out_flits[32*outf_idx+:32];
      end
    endcase
  end

  always @(posedge clk) begin
    if (rst) data_q <= 1'b0;
    else data_q <= exec;
    if (exec) begin
      err_q <= err;
      rd_mux_q <= err ? 32'd0 : rd_mux;
      ram_shadow_q <= rd && in_shadow;
      ram_hmbox_q <= rd && hmbox_q;
      ram_rx_q <= rd_rx_data;
    end
  end
  assign op_done = data_q;
  assign op_err = err_q;
  assign op_rdata = ram_shadow_q ? sh_rdata : ram_hmbox_q ? hm_rdata : ram_rx_q ? rx_word : rd_mux_q;

  always @(posedge clk) begin
    if (rst) irq <= 1'b0;
    else irq <= (irq_status & irq_en) != 2'd0;
  end
endmodule
`default_nettype wire
