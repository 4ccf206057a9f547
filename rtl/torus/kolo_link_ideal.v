`default_nettype none
// kolo_link_ideal - an ideal link between two router ports.
//
// Carries flits from the upstream router's output port (tx_*) to the
// downstream router's input port (rx_*) after LATENCY cycles, and credits the
// other way after the same LATENCY. Nothing is lost or reordered. The reliable
// link layer replaces this module behind the same ports.
// Handshake: credit-based. A flit is sent only against a credit; the link never
// stalls (no ready), so every tx_valid cycle reappears as an rx_valid cycle.
module kolo_link_ideal #(
    parameter LATENCY = 1  // cycles each way, >= 0 (0 = wire)
) (
    input  wire        clk,
    input  wire        rst,
    // upstream router output port
    input  wire        tx_valid,
    input  wire [67:0] tx_flit,
    output wire        tx_credit_valid,
    output wire [1:0]  tx_credit_vc,
    // downstream router input port
    output wire        rx_valid,
    output wire [67:0] rx_flit,
    input  wire        rx_credit_valid,
    input  wire [1:0]  rx_credit_vc,
    output wire        link_up
);
  assign link_up = 1'b1;

  generate
    if (LATENCY == 0) begin : g_wire
      wire unused_clk_rst = &{1'b0, clk, rst};  // a plain wire has no state
      assign rx_valid        = tx_valid;
      assign rx_flit         = tx_flit;
      assign tx_credit_valid = rx_credit_valid;
      assign tx_credit_vc    = rx_credit_vc;
    end else begin : g_delay
      reg [LATENCY-1:0] fwd_valid;
      reg [LATENCY*68-1:0] fwd_flit;
      reg [LATENCY-1:0] bwd_valid;
      reg [LATENCY*2-1:0] bwd_vc;
      integer i;
      always @(posedge clk) begin
        if (rst) begin
          fwd_valid <= {LATENCY{1'b0}};
          bwd_valid <= {LATENCY{1'b0}};
        end else begin
          fwd_valid[0] <= tx_valid;
          bwd_valid[0] <= rx_credit_valid;
          for (i = 1; i < LATENCY; i = i + 1) begin
            fwd_valid[i] <= fwd_valid[i-1];
            bwd_valid[i] <= bwd_valid[i-1];
          end
        end
        fwd_flit[67:0] <= tx_flit;
        bwd_vc[1:0] <= rx_credit_vc;
        for (i = 1; i < LATENCY; i = i + 1) begin
          fwd_flit[i*68+:68] <= fwd_flit[(i-1)*68+:68];
          bwd_vc[i*2+:2] <= bwd_vc[(i-1)*2+:2];
        end
      end
      assign rx_valid        = fwd_valid[LATENCY-1];
      assign rx_flit         = fwd_flit[(LATENCY-1)*68+:68];
      assign tx_credit_valid = bwd_valid[LATENCY-1];
      assign tx_credit_vc    = bwd_vc[(LATENCY-1)*2+:2];
    end
  endgenerate
endmodule
`default_nettype wire
