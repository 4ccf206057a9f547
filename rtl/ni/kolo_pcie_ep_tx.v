`default_nettype none
// kolo_pcie_ep_tx - transmit arbiter of the PCIe endpoint core, and MSI.
//
// Sources, each a TLP stream (valid/ready, header on the sop beat):
//   cpl  completions for the host's reads (kolo_pcie_ep_cpl, one beat)
//   msi  the MSI request (msi_valid/ready/vector) turned into a one-DW MWr
//        to cfg_msi_addr with data cfg_msi_data | vector (low 5 bits);
//        accepted and dropped while !cfg_msi_en or !cfg_bus_master
//   mrd  DMA read requests (kolo_pcie_dma_rd, one beat)
//   mwr  DMA writes (kolo_pcie_dma_wr, several beats per TLP)
// Ordering (PCIe: reads, completions and posted writes must not pass an
// earlier posted write): while the write engine holds an accepted write
// (wr_pending) only mwr is sent; otherwise the one-beat sources go in the
// order cpl, msi, mrd. Fairness: while a write is waiting to start
// (wr_waiting) and other TLPs are waiting, `wr_hold` keeps the write engine
// from starting until OTHERS_QUOTA other TLPs have gone since its last
// start; without waiting writes the others are not limited, and the
// write engine, once started, sends its whole request.
// Output: registered, tx_tlp_* held while !tx_tlp_ready.
module kolo_pcie_ep_tx #(
    parameter OTHERS_QUOTA = 8
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [15:0]  cfg_req_id,
    input  wire         cfg_bus_master,
    input  wire [63:0]  cfg_msi_addr,
    input  wire [15:0]  cfg_msi_data,
    input  wire         cfg_msi_en,
    // completions
    input  wire         cpl_valid,
    output wire         cpl_ready,
    input  wire [127:0] cpl_hdr,
    input  wire [255:0] cpl_data,
    input  wire [7:0]   cpl_dw_en,
    // MSI requests
    input  wire         msi_valid,
    output wire         msi_ready,
    input  wire [4:0]   msi_vector,
    // DMA read requests
    input  wire         mrd_valid,
    output wire         mrd_ready,
    input  wire [127:0] mrd_hdr,
    // DMA writes
    input  wire         mwr_valid,
    output wire         mwr_ready,
    input  wire [127:0] mwr_hdr,
    input  wire [255:0] mwr_data,
    input  wire         mwr_sop,
    input  wire         mwr_eop,
    input  wire [7:0]   mwr_dw_en,
    input  wire         wr_pending,   // the write engine holds an accepted write
    input  wire         wr_waiting,   // a write request waits to be started
    input  wire         wr_start,     // the write engine starts a request
    output wire         wr_hold,
    // to the link
    output reg          tx_tlp_valid,
    input  wire         tx_tlp_ready,
    output reg  [127:0] tx_tlp_hdr,
    output reg  [255:0] tx_tlp_data,
    output reg          tx_tlp_sop,
    output reg          tx_tlp_eop,
    output reg  [7:0]   tx_tlp_dw_en
);
  localparam integer QW = $clog2(OTHERS_QUOTA + 1);
  localparam [QW-1:0] QUOTA = OTHERS_QUOTA[QW-1:0];

  // MSI holding register
  reg        msi_pend;
  reg [4:0]  msi_vec;
  assign msi_ready = !msi_pend;
  wire msi_use4 = (cfg_msi_addr[63:32] != 32'd0);
  wire [31:0] m0 = {1'b0, 1'b1, msi_use4, 5'b00000, 14'd0, 10'd1};
  wire [31:0] m1 = {cfg_req_id, 8'd0, 4'b0000, 4'b1111};
  wire [127:0] msi_hdr = msi_use4 ? {cfg_msi_addr[31:2], 2'b00, cfg_msi_addr[63:32], m1, m0}
                                  : {32'd0, cfg_msi_addr[31:2], 2'b00, m1, m0};
  wire [15:0] msi_word = cfg_msi_data | {11'd0, msi_vec};
  wire unused_tx = &{1'b0, cfg_msi_addr[1:0]};  // MSI addresses are DW-aligned

  wire out_free = !tx_tlp_valid || tx_tlp_ready;
  wire others = cpl_valid || msi_pend || mrd_valid;
  reg [QW-1:0] quota_used;
  assign wr_hold = others && (quota_used < QUOTA);

  wire g_mwr = out_free && wr_pending && mwr_valid;
  wire g_cpl = out_free && !wr_pending && cpl_valid;
  wire g_msi = out_free && !wr_pending && !cpl_valid && msi_pend;
  wire g_mrd = out_free && !wr_pending && !cpl_valid && !msi_pend && mrd_valid;
  assign mwr_ready = g_mwr;
  assign cpl_ready = g_cpl;
  assign mrd_ready = g_mrd;

  always @(posedge clk) begin
    if (rst) begin
      msi_pend <= 1'b0;
      msi_vec <= 5'd0;
      quota_used <= {QW{1'b0}};
      tx_tlp_valid <= 1'b0;
      tx_tlp_hdr <= 128'd0;
      tx_tlp_data <= 256'd0;
      tx_tlp_sop <= 1'b0;
      tx_tlp_eop <= 1'b0;
      tx_tlp_dw_en <= 8'd0;
    end else begin
      if (msi_valid && msi_ready && cfg_msi_en && cfg_bus_master) begin
        msi_pend <= 1'b1;
        msi_vec <= msi_vector;
      end
      if (g_msi) msi_pend <= 1'b0;
      if (wr_start) quota_used <= {QW{1'b0}};
      else if ((g_cpl || g_msi || g_mrd) && wr_waiting && quota_used != QUOTA)
        quota_used <= quota_used + {{(QW-1){1'b0}}, 1'b1};

      if (tx_tlp_valid && tx_tlp_ready) tx_tlp_valid <= 1'b0;
      if (g_mwr || g_cpl || g_msi || g_mrd) begin
        tx_tlp_valid <= 1'b1;
        tx_tlp_hdr <= g_mwr ? mwr_hdr : g_cpl ? cpl_hdr : g_msi ? msi_hdr : mrd_hdr;
        tx_tlp_data <= g_mwr ? mwr_data : g_cpl ? cpl_data : g_msi ? {224'd0, 16'd0, msi_word} : 256'd0;
        tx_tlp_sop <= g_mwr ? mwr_sop : 1'b1;
        tx_tlp_eop <= g_mwr ? mwr_eop : 1'b1;
        tx_tlp_dw_en <= g_mwr ? mwr_dw_en : g_cpl ? cpl_dw_en : g_msi ? 8'h01 : 8'h00;
      end
    end
  end

`ifdef FORMAL
  reg f_rst_seen = 1'b0;
  always @(posedge clk) if (rst) f_rst_seen <= 1'b1;
  always @(*) begin
    if (f_rst_seen) begin
      // one grant at a time; nothing passes an accepted write
      assert(g_mwr + g_cpl + g_msi + g_mrd <= 1);
      if (wr_pending) assert(!g_cpl && !g_msi && !g_mrd);
    end
  end
`endif
endmodule
`default_nettype wire
