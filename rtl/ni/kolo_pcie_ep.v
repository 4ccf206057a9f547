`default_nettype none
// kolo_pcie_ep - vendor-neutral PCIe endpoint core (docs/ni.md section 6).
//
// TLP streams to and from the vendor shim (rx_tlp_* from the link, tx_tlp_*
// to it; header DW0..DW3 in hdr[127:0] on the sop beat, 256-bit payload
// beats with dw_en; rx_cpl_* carries completions only, for a block that
// delivers them apart from the requests, else it is tied off; np_credit
// lets the shim hold the block's non-posted requests back), and the user
// side of the NI:
//   MMIO write chunks (BAR0/BAR2, 64-byte aligned, 512 data bits + strobes),
//   MMIO reads of 4 or 8 bytes (one in flight) answered by completions,
//   DMA reads (split, tagged, reassembled, timed out) and DMA writes (split),
//   MSI, and saturating event counters.
// Parts: kolo_pcie_ep_rx (decode, BAR decode, MMIO write chunks, completion
// demux), kolo_pcie_ep_cpl (answers the host's reads, UR completions),
// kolo_pcie_dma_rd, kolo_pcie_dma_wr, kolo_pcie_ep_tx (arbiter, ordering,
// MSI).
// Counters (16 bits, saturating): stat_ur unsupported requests received;
// stat_ca CA completions sent (MMIO reads the user side failed);
// stat_cpl_timeout DMA read tags that timed out; stat_cpl_err completions
// received with an error status (UR, CA, CRS) or poisoned; stat_bad_tlp
// malformed or unexpected TLPs received (dropped).
// Every handshake is valid/ready (a beat moves when both are high); all
// outputs toward the user are held while their ready is low.
module kolo_pcie_ep #(
    parameter BAR0_SIZE_LOG2 = 17,
    parameter BAR2_SIZE_LOG2 = 16,
    parameter TAGS = 32,
    parameter CPL_TIMEOUT = 250000,   // cycles (1 ms at 250 MHz)
    parameter RB_LINES = 512,         // DMA read reorder buffer, lines of 32 bytes
    parameter REQS = 32,              // DMA read requests in flight
    parameter OTHERS_QUOTA = 8,       // TLPs that may go between two DMA write requests
    parameter NP_DEPTH = 16           // host non-posted requests queued (np_credit)
) (
    input  wire         clk,
    input  wire         rst,
    // TLPs from the link
    input  wire         rx_tlp_valid,
    output wire         rx_tlp_ready,
    input  wire [127:0] rx_tlp_hdr,
    input  wire [255:0] rx_tlp_data,
    input  wire         rx_tlp_sop,
    input  wire         rx_tlp_eop,
    input  wire [7:0]   rx_tlp_dw_en,
    // completions from the link on a stream of their own (or tied off)
    input  wire         rx_cpl_valid,
    output wire         rx_cpl_ready,
    input  wire [127:0] rx_cpl_hdr,
    input  wire [255:0] rx_cpl_data,
    input  wire         rx_cpl_sop,
    input  wire         rx_cpl_eop,
    input  wire [7:0]   rx_cpl_dw_en,
    output wire         np_credit,
    // TLPs to the link
    output wire         tx_tlp_valid,
    input  wire         tx_tlp_ready,
    output wire [127:0] tx_tlp_hdr,
    output wire [255:0] tx_tlp_data,
    output wire         tx_tlp_sop,
    output wire         tx_tlp_eop,
    output wire [7:0]   tx_tlp_dw_en,
    // MMIO write
    output wire         mmio_wr_valid,
    input  wire         mmio_wr_ready,
    output wire [1:0]   mmio_wr_bar,
    output wire [31:0]  mmio_wr_addr,
    output wire [511:0] mmio_wr_data,
    output wire [63:0]  mmio_wr_strb,
    // MMIO read
    output wire         mmio_rd_valid,
    input  wire         mmio_rd_ready,
    output wire [1:0]   mmio_rd_bar,
    output wire [31:0]  mmio_rd_addr,
    output wire [3:0]   mmio_rd_len,
    input  wire         mmio_rd_resp_valid,
    output wire         mmio_rd_resp_ready,
    input  wire [63:0]  mmio_rd_resp_data,
    input  wire         mmio_rd_resp_err,
    // DMA read
    input  wire         dma_rd_req_valid,
    output wire         dma_rd_req_ready,
    input  wire [63:0]  dma_rd_req_addr,
    input  wire [12:0]  dma_rd_req_len,
    input  wire [7:0]   dma_rd_req_id,
    output wire         dma_rd_valid,
    input  wire         dma_rd_ready,
    output wire [255:0] dma_rd_data,
    output wire [7:0]   dma_rd_id,
    output wire         dma_rd_last,
    output wire         dma_rd_err,
    // DMA write
    input  wire         dma_wr_valid,
    output wire         dma_wr_ready,
    input  wire [63:0]  dma_wr_addr,
    input  wire [12:0]  dma_wr_len,
    input  wire [255:0] dma_wr_data,
    input  wire         dma_wr_last,
    // MSI
    input  wire         msi_valid,
    output wire         msi_ready,
    input  wire [4:0]   msi_vector,
    // configuration from the vendor block
    input  wire [63:0]  cfg_bar0,
    input  wire [63:0]  cfg_bar2,
    input  wire [15:0]  cfg_req_id,
    input  wire [2:0]   cfg_max_payload,
    input  wire [2:0]   cfg_max_read_req,
    input  wire         cfg_bus_master,
    input  wire [63:0]  cfg_msi_addr,
    input  wire [15:0]  cfg_msi_data,
    input  wire         cfg_msi_en,
    // the block's receive buffer for completions (docs/pcie-shims.md), from
    // the shim: headers and data credits of 16 bytes; a DMA read waits until
    // its completions fit (kolo_pcie_dma_rd)
    input  wire [11:0]  cfg_cpl_hdr,
    input  wire [15:0]  cfg_cpl_data,
    // counters
    output reg  [15:0]  stat_ur,
    output reg  [15:0]  stat_ca,
    output reg  [15:0]  stat_cpl_timeout,
    output reg  [15:0]  stat_cpl_err,
    output reg  [15:0]  stat_bad_tlp,
    output wire [8:0]   stat_tags_used
);
  // rx -> completer
  wire        np_valid, np_ready;
  wire [1:0]  np_kind, np_bar;
  wire [31:0] np_addr;
  wire [3:0]  np_len;
  wire [15:0] np_req_id;
  wire [9:0]  np_tag;
  wire [2:0]  np_tc, np_attr;
  wire [6:0]  np_lower_addr;
  wire [11:0] np_byte_count;
  wire        np_locked;
  // rx -> dma_rd
  wire         rc_valid, rc_sop, rc_eop;
  wire [127:0] rc_hdr;
  wire [255:0] rc_data;
  wire [7:0]   rc_dw_en;
  // -> tx
  wire         c_valid, c_ready;
  wire [127:0] c_hdr;
  wire [255:0] c_data;
  wire [7:0]   c_dw_en;
  wire         m_valid, m_ready;
  wire [127:0] m_hdr;
  wire         w_valid, w_ready, w_sop, w_eop;
  wire [127:0] w_hdr;
  wire [255:0] w_data;
  wire [7:0]   w_dw_en;
  wire         wr_pending, wr_start, wr_hold;
  // events
  wire ev_ur, ev_bad_rx, ev_ca, ev_timeout, ev_cpl_err, ev_bad_cpl;

  kolo_pcie_ep_rx #(.BAR0_SIZE_LOG2(BAR0_SIZE_LOG2), .BAR2_SIZE_LOG2(BAR2_SIZE_LOG2), .NP_DEPTH(NP_DEPTH)) u_rx (
      .clk(clk), .rst(rst),
      .rx_tlp_valid(rx_tlp_valid), .rx_tlp_ready(rx_tlp_ready), .rx_tlp_hdr(rx_tlp_hdr),
      .rx_tlp_data(rx_tlp_data), .rx_tlp_sop(rx_tlp_sop), .rx_tlp_eop(rx_tlp_eop),
      .rx_tlp_dw_en(rx_tlp_dw_en),
      .rx_cpl_valid(rx_cpl_valid), .rx_cpl_ready(rx_cpl_ready), .rx_cpl_hdr(rx_cpl_hdr),
      .rx_cpl_data(rx_cpl_data), .rx_cpl_sop(rx_cpl_sop), .rx_cpl_eop(rx_cpl_eop),
      .rx_cpl_dw_en(rx_cpl_dw_en), .np_credit(np_credit),
      .cfg_bar0(cfg_bar0), .cfg_bar2(cfg_bar2),
      .mmio_wr_valid(mmio_wr_valid), .mmio_wr_ready(mmio_wr_ready), .mmio_wr_bar(mmio_wr_bar),
      .mmio_wr_addr(mmio_wr_addr), .mmio_wr_data(mmio_wr_data), .mmio_wr_strb(mmio_wr_strb),
      .np_valid(np_valid), .np_ready(np_ready), .np_kind(np_kind), .np_bar(np_bar),
      .np_addr(np_addr), .np_len(np_len), .np_req_id(np_req_id), .np_tag(np_tag), .np_tc(np_tc),
      .np_attr(np_attr), .np_lower_addr(np_lower_addr), .np_byte_count(np_byte_count),
      .np_locked(np_locked),
      .cpl_valid(rc_valid), .cpl_hdr(rc_hdr), .cpl_data(rc_data),
      .cpl_sop(rc_sop), .cpl_eop(rc_eop), .cpl_dw_en(rc_dw_en),
      .ev_ur(ev_ur), .ev_bad(ev_bad_rx)
  );

  kolo_pcie_ep_cpl u_cpl (
      .clk(clk), .rst(rst), .cfg_req_id(cfg_req_id),
      .np_valid(np_valid), .np_ready(np_ready), .np_kind(np_kind), .np_bar(np_bar),
      .np_addr(np_addr), .np_len(np_len), .np_req_id(np_req_id), .np_tag(np_tag), .np_tc(np_tc),
      .np_attr(np_attr), .np_lower_addr(np_lower_addr), .np_byte_count(np_byte_count),
      .np_locked(np_locked),
      .mmio_rd_valid(mmio_rd_valid), .mmio_rd_ready(mmio_rd_ready), .mmio_rd_bar(mmio_rd_bar),
      .mmio_rd_addr(mmio_rd_addr), .mmio_rd_len(mmio_rd_len),
      .mmio_rd_resp_valid(mmio_rd_resp_valid), .mmio_rd_resp_ready(mmio_rd_resp_ready),
      .mmio_rd_resp_data(mmio_rd_resp_data), .mmio_rd_resp_err(mmio_rd_resp_err),
      .cpl_tlp_valid(c_valid), .cpl_tlp_ready(c_ready), .cpl_tlp_hdr(c_hdr),
      .cpl_tlp_data(c_data), .cpl_tlp_dw_en(c_dw_en),
      .ev_ca(ev_ca)
  );

  kolo_pcie_dma_rd #(.TAGS(TAGS), .CPL_TIMEOUT(CPL_TIMEOUT), .RB_LINES(RB_LINES), .REQS(REQS)) u_dma_rd (
      .clk(clk), .rst(rst),
      .cfg_req_id(cfg_req_id), .cfg_max_read_req(cfg_max_read_req), .cfg_bus_master(cfg_bus_master),
      .cfg_cpl_hdr(cfg_cpl_hdr), .cfg_cpl_data(cfg_cpl_data),
      .dma_rd_req_valid(dma_rd_req_valid), .dma_rd_req_ready(dma_rd_req_ready),
      .dma_rd_req_addr(dma_rd_req_addr), .dma_rd_req_len(dma_rd_req_len), .dma_rd_req_id(dma_rd_req_id),
      .dma_rd_valid(dma_rd_valid), .dma_rd_ready(dma_rd_ready), .dma_rd_data(dma_rd_data),
      .dma_rd_id(dma_rd_id), .dma_rd_last(dma_rd_last), .dma_rd_err(dma_rd_err),
      .cpl_valid(rc_valid), .cpl_hdr(rc_hdr), .cpl_data(rc_data),
      .cpl_sop(rc_sop), .cpl_eop(rc_eop), .cpl_dw_en(rc_dw_en),
      .mrd_valid(m_valid), .mrd_ready(m_ready), .mrd_hdr(m_hdr),
      .ev_timeout(ev_timeout), .ev_cpl_err(ev_cpl_err), .ev_bad(ev_bad_cpl),
      .tags_used(stat_tags_used)
  );

  kolo_pcie_dma_wr u_dma_wr (
      .clk(clk), .rst(rst),
      .cfg_req_id(cfg_req_id), .cfg_max_payload(cfg_max_payload), .cfg_bus_master(cfg_bus_master),
      .hold(wr_hold), .pending(wr_pending), .start(wr_start),
      .dma_wr_valid(dma_wr_valid), .dma_wr_ready(dma_wr_ready), .dma_wr_addr(dma_wr_addr),
      .dma_wr_len(dma_wr_len), .dma_wr_data(dma_wr_data), .dma_wr_last(dma_wr_last),
      .out_valid(w_valid), .out_ready(w_ready), .out_hdr(w_hdr), .out_data(w_data),
      .out_sop(w_sop), .out_eop(w_eop), .out_dw_en(w_dw_en)
  );

  kolo_pcie_ep_tx #(.OTHERS_QUOTA(OTHERS_QUOTA)) u_tx (
      .clk(clk), .rst(rst),
      .cfg_req_id(cfg_req_id), .cfg_bus_master(cfg_bus_master), .cfg_msi_addr(cfg_msi_addr),
      .cfg_msi_data(cfg_msi_data), .cfg_msi_en(cfg_msi_en),
      .cpl_valid(c_valid), .cpl_ready(c_ready), .cpl_hdr(c_hdr), .cpl_data(c_data), .cpl_dw_en(c_dw_en),
      .msi_valid(msi_valid), .msi_ready(msi_ready), .msi_vector(msi_vector),
      .mrd_valid(m_valid), .mrd_ready(m_ready), .mrd_hdr(m_hdr),
      .mwr_valid(w_valid), .mwr_ready(w_ready), .mwr_hdr(w_hdr), .mwr_data(w_data),
      .mwr_sop(w_sop), .mwr_eop(w_eop), .mwr_dw_en(w_dw_en),
      .wr_pending(wr_pending), .wr_waiting(dma_wr_valid && !wr_pending), .wr_start(wr_start),
      .wr_hold(wr_hold),
      .tx_tlp_valid(tx_tlp_valid), .tx_tlp_ready(tx_tlp_ready), .tx_tlp_hdr(tx_tlp_hdr),
      .tx_tlp_data(tx_tlp_data), .tx_tlp_sop(tx_tlp_sop), .tx_tlp_eop(tx_tlp_eop),
      .tx_tlp_dw_en(tx_tlp_dw_en)
  );

  // ---- counters (saturating) ---------------------------------------------------------
  function [15:0] sat_add(input [15:0] v, input [1:0] n);
    sat_add = ({1'b0, v} + {15'd0, n} > 17'hFFFF) ? 16'hFFFF : v + {14'd0, n};
  endfunction
  always @(posedge clk) begin
    if (rst) begin
      stat_ur <= 16'd0;
      stat_ca <= 16'd0;
      stat_cpl_timeout <= 16'd0;
      stat_cpl_err <= 16'd0;
      stat_bad_tlp <= 16'd0;
    end else begin
      stat_ur <= sat_add(stat_ur, {1'b0, ev_ur});
      stat_ca <= sat_add(stat_ca, {1'b0, ev_ca});
      stat_cpl_timeout <= sat_add(stat_cpl_timeout, {1'b0, ev_timeout});
      stat_cpl_err <= sat_add(stat_cpl_err, {1'b0, ev_cpl_err});
      stat_bad_tlp <= sat_add(stat_bad_tlp, {1'b0, ev_bad_rx} + {1'b0, ev_bad_cpl});
    end
  end
endmodule
`default_nettype wire
