`default_nettype none
// kolo_net_inject - the NI side of one local port in the network proofs
// (formal/net: kolo_ring_formal, kolo_torus_formal): sends packets flit by
// flit into a kolo_router's local input, one packet at a time, each flit only
// against a credit the router returned (LOCAL_DEPTH per VC at reset, VCs 0
// and 1 of vnet 0), at most PKTS packets (0: no limit).
//
// The harness chooses a new packet (new_vc, len, hdr: header flit 0) and
// when to send (want, $anyseq or constant); can_start gates a new packet (a
// valid table entry, say). Before the stop the NI sends when `want` says;
// once `stopped`, it sends no new packet and finishes the one it began at
// full rate (credits allowing), as an NI does. Body flits carry zero data.
module kolo_net_inject #(
    parameter LOCAL_DEPTH = 34,
    parameter PKTS        = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        stopped,
    input  wire        want,        // send a flit now (credits allowing)
    input  wire        can_start,   // a new packet may begin now
    input  wire [1:0]  new_vc,      // VC of a new packet
    input  wire [5:0]  len,         // its payload flits (len + 2 flits)
    input  wire [63:0] hdr,         // its header flit 0
    input  wire        cr_back,     // a credit from the router's local input
    input  wire [1:0]  cr_vc,
    output wire        go,          // a flit on flit now
    output wire [67:0] flit,
    output reg         in_pkt,      // inside a packet
    output wire        home         // every credit back (LOCAL_DEPTH on VCs 0 and 1)
);
  reg [7:0] sent_pkts = 8'd0;
  wire pkts_left = (PKTS == 0) || (sent_pkts < PKTS);
  reg [5:0] left = 6'd0;          // flits still to send of the current packet
  reg [1:0] cur_vc = 2'd0;
  reg [7:0] cred0 = LOCAL_DEPTH, cred1 = LOCAL_DEPTH;  // credits of VC 0 and 1
  initial in_pkt = 1'b0;

  wire [1:0] vc = in_pkt ? cur_vc : new_vc;
  wire have_credit = (vc[0] ? cred1 : cred0) != 8'd0;
  assign go = !rst && (want || stopped) && have_credit
      && (in_pkt || (!stopped && pkts_left && can_start));
  wire first = !in_pkt;
  wire last = in_pkt && left == 6'd1;
  assign flit = {vc, first, last, first ? hdr : 64'd0};
  assign home = cred0 == LOCAL_DEPTH && cred1 == LOCAL_DEPTH;

  always @(posedge clk) begin
    if (go) begin
      if (first) begin
        in_pkt <= 1'b1;
        if (sent_pkts != 8'hff) sent_pkts <= sent_pkts + 8'd1;
        cur_vc <= new_vc;
        left <= len + 6'd1;
      end else begin
        left <= left - 6'd1;
        if (last) in_pkt <= 1'b0;
      end
    end
    if (!rst) begin
      cred0 <= cred0 - {7'd0, go && !vc[0]} + {7'd0, cr_back && cr_vc == 2'd0};
      cred1 <= cred1 - {7'd0, go && vc[0]} + {7'd0, cr_back && cr_vc == 2'd1};
    end
  end
endmodule
`default_nettype wire
