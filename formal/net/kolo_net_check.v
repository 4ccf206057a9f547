`default_nettype none
// kolo_net_check - the properties of the network proofs (formal/net, proof 3
// of issue 19), shared by the ring harness kolo_ring_formal and the torus
// harness kolo_torus_formal. The harnesses gather per node what the
// properties need; this checks, from the cycle after reset:
// - in every cycle no router drops a packet (any_errors: stat_errors != 0);
// - QUIET = M > 0: quiet (kolo_net_count: cycles in a row after the stop
//   with flits in the network and none moving) stays below M; a deadlocked
//   state never changes again, so it fails this at any M;
// - DRAIN = 1: once the stop has held BOUND cycles (since_stop >= BOUND), no
//   injector is inside a packet, every flit injected has been delivered
//   (in_net == 0), no router holds a flit (node_busy) and every credit is
//   home (credits_home).
// The assertions sit in a clocked block: each step's values are judged at
// the next step (formal/net/ring_drain.sby's depths allow for it).
module kolo_net_check #(
    parameter N     = 2,         // nodes
    parameter QUIET = 0,         // 0: off
    parameter DRAIN = 1,         // 0: off
    parameter BOUND = 0          // drain bound, cycles after the stop
) (
    input wire         clk,
    input wire         rst,
    input wire [7:0]   since_stop,
    input wire [7:0]   in_net,
    input wire [7:0]   quiet,
    input wire [N-1:0] any_errors,    // node n's router counted an error
    input wire [N-1:0] mid_packet,    // node n's injector is inside a packet
    input wire [N-1:0] node_busy,     // some buffer or output of node n holds a flit
    input wire [N-1:0] credits_home   // every credit of node n's outputs and NI is back
);
`ifdef FORMAL
  always @(posedge clk) begin
    if (!rst) begin
      assert (any_errors == {N{1'b0}});
      if (QUIET != 0) assert (quiet < QUIET);
      if (DRAIN != 0 && since_stop >= BOUND) begin
        assert (mid_packet == {N{1'b0}});
        assert (in_net == 8'd0);
        assert (node_busy == {N{1'b0}});
        assert (credits_home == {N{1'b1}});
      end
    end
  end
`endif
endmodule
`default_nettype wire
