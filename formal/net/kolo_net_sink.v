`default_nettype none
// kolo_net_sink - the NI side of one local output in the network proofs
// (formal/net): takes every flit the router delivers (the router sends only
// against the EJECT_CREDITS per VC it holds) and returns their credits, at
// most one per cycle, VC 0's first unless give_vc1 says otherwise. It may
// stall (give low), but never for more than K cycles in a row while it owes
// credits. Only VCs 0 and 1 (vnet 0) are counted.
module kolo_net_sink #(
    parameter K = 0              // longest stall, cycles (0: a credit every cycle while owing)
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       give,      // return a credit now (if owing)
    input  wire       give_vc1,  // ... of VC 1 rather than VC 0 (when both are owed)
    input  wire       out_v,     // the router delivers a flit
    input  wire [1:0] out_vc,    // on this VC
    output wire       ret,       // a credit back to the router now
    output wire       ret_vc1,   // on VC 1 (else VC 0)
    output wire       home       // owes no credit
);
  reg [7:0] owe0 = 8'd0, owe1 = 8'd0;
  reg [3:0] stall = 4'd0;
  wire owing = owe0 != 8'd0 || owe1 != 8'd0;
  assign ret = !rst && owing && (give || stall == K);
  assign ret_vc1 = (owe1 != 8'd0) && (give_vc1 || owe0 == 8'd0);
  assign home = !owing;
  always @(posedge clk) begin
    if (!rst) begin
      owe0 <= owe0 + {7'd0, out_v && out_vc == 2'd0} - {7'd0, ret && !ret_vc1};
      owe1 <= owe1 + {7'd0, out_v && out_vc == 2'd1} - {7'd0, ret && ret_vc1};
      stall <= (owing && !ret) ? stall + 4'd1 : 4'd0;
    end
  end
endmodule
`default_nettype wire
