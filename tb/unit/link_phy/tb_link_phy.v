`default_nettype none
// tb_link_phy - unit-test top: two kolo_link_phy, A and B, each with its own
// core, tx lane and rx lane clocks. The harness (tb_link_phy.cpp) carries A's
// tx lane words to B's rx lanes and B's to A's through its lane model, and
// plays both cores. Ports are the PHYs' own, suffixed _a / _b.
module tb_link_phy #(
    parameter LANES       = 1,
    parameter CC_INTERVAL = 4096,
    parameter SLIP_WAIT   = 16,
    parameter FIFO_ADDR_W = 4
) (
    input  wire                clk_a,
    input  wire                rst_a,
    input  wire                tx_blk_valid_a,
    output wire                tx_blk_ready_a,
    input  wire [65:0]         tx_blk_a,
    output wire                rx_blk_valid_a,
    output wire [65:0]         rx_blk_a,
    output wire                phy_rx_lock_a,
    output wire                phy_lock_loss_a,
    output wire                phy_rx_overflow_a,
    input  wire                tx_lane_clk_a,
    input  wire                tx_lane_rst_a,
    input  wire                tx_lane_ready_a,
    output wire [66*LANES-1:0] tx_lane_data_a,
    input  wire                rx_lane_clk_a,
    input  wire                rx_lane_rst_a,
    input  wire [LANES-1:0]    rx_lane_valid_a,
    input  wire [66*LANES-1:0] rx_lane_data_a,
    output wire [LANES-1:0]    rx_lane_slip_a,
    input  wire                clk_b,
    input  wire                rst_b,
    input  wire                tx_blk_valid_b,
    output wire                tx_blk_ready_b,
    input  wire [65:0]         tx_blk_b,
    output wire                rx_blk_valid_b,
    output wire [65:0]         rx_blk_b,
    output wire                phy_rx_lock_b,
    output wire                phy_lock_loss_b,
    output wire                phy_rx_overflow_b,
    input  wire                tx_lane_clk_b,
    input  wire                tx_lane_rst_b,
    input  wire                tx_lane_ready_b,
    output wire [66*LANES-1:0] tx_lane_data_b,
    input  wire                rx_lane_clk_b,
    input  wire                rx_lane_rst_b,
    input  wire [LANES-1:0]    rx_lane_valid_b,
    input  wire [66*LANES-1:0] rx_lane_data_b,
    output wire [LANES-1:0]    rx_lane_slip_b
);
  kolo_link_phy #(
      .LANES(LANES), .CC_INTERVAL(CC_INTERVAL), .SLIP_WAIT(SLIP_WAIT), .FIFO_ADDR_W(FIFO_ADDR_W)
  ) u_a (
      .clk(clk_a), .rst(rst_a),
      .tx_blk_valid(tx_blk_valid_a), .tx_blk_ready(tx_blk_ready_a), .tx_blk(tx_blk_a),
      .rx_blk_valid(rx_blk_valid_a), .rx_blk(rx_blk_a),
      .phy_rx_lock(phy_rx_lock_a), .phy_lock_loss(phy_lock_loss_a), .phy_rx_overflow(phy_rx_overflow_a),
      .tx_lane_clk(tx_lane_clk_a), .tx_lane_rst(tx_lane_rst_a), .tx_lane_ready(tx_lane_ready_a),
      .tx_lane_data(tx_lane_data_a),
      .rx_lane_clk(rx_lane_clk_a), .rx_lane_rst(rx_lane_rst_a), .rx_lane_valid(rx_lane_valid_a),
      .rx_lane_data(rx_lane_data_a),
      .rx_lane_slip(rx_lane_slip_a)
  );
  kolo_link_phy #(
      .LANES(LANES), .CC_INTERVAL(CC_INTERVAL), .SLIP_WAIT(SLIP_WAIT), .FIFO_ADDR_W(FIFO_ADDR_W)
  ) u_b (
      .clk(clk_b), .rst(rst_b),
      .tx_blk_valid(tx_blk_valid_b), .tx_blk_ready(tx_blk_ready_b), .tx_blk(tx_blk_b),
      .rx_blk_valid(rx_blk_valid_b), .rx_blk(rx_blk_b),
      .phy_rx_lock(phy_rx_lock_b), .phy_lock_loss(phy_lock_loss_b), .phy_rx_overflow(phy_rx_overflow_b),
      .tx_lane_clk(tx_lane_clk_b), .tx_lane_rst(tx_lane_rst_b), .tx_lane_ready(tx_lane_ready_b),
      .tx_lane_data(tx_lane_data_b),
      .rx_lane_clk(rx_lane_clk_b), .rx_lane_rst(rx_lane_rst_b), .rx_lane_valid(rx_lane_valid_b),
      .rx_lane_data(rx_lane_data_b),
      .rx_lane_slip(rx_lane_slip_b)
  );
endmodule
`default_nettype wire
