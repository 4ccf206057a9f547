`default_nettype none
// kolo_net_count - the network proofs' (formal/net) stop and flit counting:
// `stopped` holds from the first cycle after reset in which stop_req is high;
// since_stop counts the cycles since; in_net counts the flits injected and
// not yet delivered; quiet counts the cycles in a row, after the stop, in
// which flits are in the network (in_net != 0) and none moves (`moved`: no
// router output of any port valid, no injection). In a deadlock quiet grows
// for ever. All counters saturate at 255.
module kolo_net_count #(
    parameter N = 2              // nodes
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         stop_req,
    input  wire [N-1:0] inj,     // node n injects a flit now
    input  wire [N-1:0] ej,      // node n's router delivers a flit now
    input  wire         moved,
    output reg          stopped,
    output reg  [7:0]   since_stop,
    output reg  [7:0]   cycle,
    output reg  [7:0]   in_net,
    output reg  [7:0]   quiet
);
  initial begin
    stopped = 1'b0;
    since_stop = 8'd0;
    cycle = 8'd0;
    in_net = 8'd0;
    quiet = 8'd0;
  end
  integer n;
  reg [7:0] inj_now, ej_now;
  always @(*) begin
    inj_now = 8'd0;
    ej_now = 8'd0;
    for (n = 0; n < N; n = n + 1) begin
      inj_now = inj_now + {7'd0, inj[n]};
      ej_now = ej_now + {7'd0, ej[n]};
    end
  end
  always @(posedge clk) begin
    if (!rst) in_net <= in_net + inj_now - ej_now;
    if (!rst && (stopped || stop_req)) stopped <= 1'b1;
    if (stopped && since_stop != 8'hff) since_stop <= since_stop + 8'd1;
    if (!rst && stopped && in_net != 8'd0 && !moved) begin
      if (quiet != 8'hff) quiet <= quiet + 8'd1;
    end else quiet <= 8'd0;
    if (cycle != 8'hff) cycle <= cycle + 8'd1;
  end
endmodule
`default_nettype wire
