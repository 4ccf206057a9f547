`default_nettype none
// kolo_lane_gearbox_rx - one lane's receive adapter between a transceiver's
// 64b/66b receive gearbox (AMD 7-series GTX/GTH, UltraScale GTH/GTY in
// synchronous-gearbox mode, or any gearbox with the same handshake) and the
// rx lane side of kolo_link_phy (rx_lane_valid / rx_lane_data / rx_lane_slip).
//
// Transceiver side (clk, the lane's RXUSRCLK2):
//   gt_data[DATA_W-1:0], gt_header[1:0], gt_data_valid, gt_header_valid, as
//   the gearbox presents them. DATA_W = 64: a block per cycle with both valids
//   high. DATA_W = 32: a block in two data cycles, the header with the first
//   (header_valid high) carrying payload bits 31:0, the second bits 63:32.
//   The gearbox leaves gaps (data_valid low) at any cycle: one in 33 cycles
//   on these parts, wherever its phase puts it, also between the two halves
//   of a block. A first half followed by another first half (a header where
//   a second half belongs) abandons the first; a second half without a first
//   and a 64-bit beat without a header are passed on as a block with the
//   invalid sync header 00, so that kolo_block_lock sees the lane as bad and
//   slips; data in cycles without data_valid is ignored.
//   gt_slip: RXGEARBOXSLIP, one-cycle pulses; a slip request from the PHY
//   (s_slip) is passed on only if SLIP_SPACING cycles have passed since the
//   last one passed on (the gearbox needs that long to settle; 7-series: 32
//   cycles), otherwise it is dropped (kolo_block_lock asks again).
// PHY side (same clock): m_valid / m_word[65:0] = {payload[63:0], sync[1:0]},
// registered, one word per assembled block (kolo_link_phy's rx_lane_valid /
// rx_lane_data for this lane). Bit order: the bits are taken as the
// transceiver presents them; both ends of a link use this adapter and
// kolo_lane_gearbox_tx, so any fixed bit order of the transceiver cancels.
// Latency: a block's last data cycle -> m_valid at the next edge.
// Reset: rst (synchronous, this clock) forgets a half block.
module kolo_lane_gearbox_rx #(
    parameter DATA_W       = 64,  // 32 or 64
    parameter SLIP_SPACING = 32   // cycles between slips passed to the transceiver, >= 1
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [DATA_W-1:0] gt_data,
    input  wire [1:0]        gt_header,
    input  wire              gt_data_valid,
    input  wire              gt_header_valid,
    output reg               gt_slip,
    input  wire              s_slip,
    output reg               m_valid,
    output reg  [65:0]       m_word
);
  localparam integer SW = $clog2(SLIP_SPACING + 1);
  localparam integer SPACING_I = SLIP_SPACING;
  localparam [SW-1:0] SPACING = SPACING_I[SW-1:0];

  generate
    if (DATA_W != 32 && DATA_W != 64) begin : g_bad_width
      kolo_lane_gearbox_rx_PARAMETER_ERROR_DATA_W_32_or_64 u_error ();
    end
    if (SLIP_SPACING < 1) begin : g_bad_spacing
      kolo_lane_gearbox_rx_PARAMETER_ERROR_SLIP_SPACING_at_least_1 u_error ();
    end
  endgenerate

  // ---- block assembly -----------------------------------------------------------
  generate
    if (DATA_W == 64) begin : g_w64
      always @(posedge clk) begin
        if (rst) m_valid <= 1'b0;
        else m_valid <= gt_data_valid;
        m_word <= {gt_data, gt_header_valid ? gt_header : 2'b00};
      end
    end else begin : g_w32
      reg        have_lo;  // the first half of a block is held
      reg [31:0] lo;
      reg [1:0]  hdr;
      always @(posedge clk) begin
        if (rst) begin
          have_lo <= 1'b0;
          m_valid <= 1'b0;
        end else begin
          m_valid <= gt_data_valid && !gt_header_valid;
          if (gt_data_valid) have_lo <= gt_header_valid;
        end
        if (gt_data_valid && gt_header_valid) begin
          lo  <= gt_data[31:0];
          hdr <= gt_header;
        end
        // a second half completes the held block; without one it is a bad block
        m_word <= {gt_data[31:0], lo, have_lo ? hdr : 2'b00};
      end
    end
  endgenerate

  // ---- slips, spaced --------------------------------------------------------------
  reg [SW-1:0] since_slip;  // cycles since the last slip passed on (saturating)
  always @(posedge clk) begin
    if (rst) begin
      gt_slip <= 1'b0;
      since_slip <= SPACING;
    end else begin
      gt_slip <= s_slip && since_slip == SPACING;
      if (s_slip && since_slip == SPACING) since_slip <= {SW{1'b0}};
      else if (since_slip != SPACING) since_slip <= since_slip + 1'b1;
    end
  end
endmodule
`default_nettype wire
