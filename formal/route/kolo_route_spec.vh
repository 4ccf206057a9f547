// kolo_route_spec.vh - sw/route's routing function as Verilog functions, the
// reference of the formal proofs on the router RTL (formal/README.md, proofs 1
// and 2). Written from the C (sw/route/kolo_route.c: kolo_route_det_port,
// kolo_route_adaptive_mask, kolo_route_advance), not from the RTL; route_enum
// (formal/route/route_enum.cpp) checks them against the C functions for every
// one of the 2^23 route states (and every port), so a proof against these
// functions is a proof against sw/route.
// Include inside a module body. Route state bits: docs/packet-format.md
// (signs 2:0, hops x 6:3, y 10:7, z 14:11, first step valid 15 / port 18:16,
// last step valid 19 / port 22:20).

// the deterministic (escape, VC0) output port: a pending first step, then
// +X +Y +Z -X -Y -Z while hops remain, then a pending last step, then local (6)
function automatic [2:0] spec_det_port(input [22:0] rs);
  integer d;
  reg found;
  begin
    found = 1'b0;
    spec_det_port = 3'd6;
    if (rs[15]) begin
      spec_det_port = rs[18:16];
      found = 1'b1;
    end
    for (d = 0; d < 3; d = d + 1)
      if (!found && !rs[d] && rs[3+4*d+:4] != 4'd0) begin
        spec_det_port = 3'(2 * d);
        found = 1'b1;
      end
    for (d = 0; d < 3; d = d + 1)
      if (!found && rs[d] && rs[3+4*d+:4] != 4'd0) begin
        spec_det_port = 3'(2 * d + 1);
        found = 1'b1;
      end
    if (!found && rs[19]) spec_det_port = rs[22:20];
  end
endfunction

// the ports an adaptive (VC1) packet may take: each dimension with hops
// left, in its sign's direction; none while a first step is pending
function automatic [5:0] spec_adaptive_mask(input [22:0] rs);
  integer d;
  begin
    spec_adaptive_mask = 6'd0;
    if (!rs[15])
      for (d = 0; d < 3; d = d + 1)
        if (rs[3+4*d+:4] != 4'd0) spec_adaptive_mask[2*d+{31'd0, rs[d]}] = 1'b1;
  end
endfunction

// the route state after leaving through port (0..6; 7 as any other non-network port)
function automatic [22:0] spec_advance(input [22:0] rs, input [2:0] out_port);
  reg [1:0] d;
  reg [3:0] h;
  begin
    spec_advance = rs;
    d = out_port[2:1];
    h = (d == 2'd0) ? rs[6:3] : (d == 2'd1) ? rs[10:7] : rs[14:11];
    if (rs[15]) begin
      spec_advance[15] = 1'b0;
    end else if (out_port < 3'd6) begin
      if (h != 4'd0 && rs[{3'd0, d}] == out_port[0]) begin
        if (d == 2'd0) spec_advance[6:3] = h - 4'd1;
        else if (d == 2'd1) spec_advance[10:7] = h - 4'd1;
        else spec_advance[14:11] = h - 4'd1;
      end else if (rs[19]) begin
        spec_advance[19] = 1'b0;
      end
    end
  end
endfunction
