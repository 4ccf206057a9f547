`default_nettype none
// kolo_ni_nidx - node id {z,y,x} to node index x + X*(y + Y*z) (docs/ni.md
// section 2), combinational: two 4x5-bit products. `ok`: the id lies inside
// the torus (ring sizes - 1 in dim_m1). Used by the end-to-end tables, which
// are indexed by node index so that small tori fill them densely.
module kolo_ni_nidx (
    input  wire [11:0] id,
    input  wire [11:0] dim_m1,
    output wire [11:0] idx,
    output wire        ok
);
  wire [4:0] dx = {1'b0, dim_m1[3:0]} + 5'd1;
  wire [4:0] dy = {1'b0, dim_m1[7:4]} + 5'd1;
  wire [8:0] yz = {5'd0, id[7:4]} + {5'd0, id[11:8]} * {4'd0, dy};  // y + Y*z < 256
  wire [13:0] p = {9'd0, id[3:0]} + {5'd0, yz} * {9'd0, dx};
  assign idx = p[11:0];
  assign ok = id[3:0] <= dim_m1[3:0] && id[7:4] <= dim_m1[7:4] && id[11:8] <= dim_m1[11:8];
  wire unused_p = &{1'b0, p[13:12]};
endmodule
`default_nettype wire
