`default_nettype none
// route_miter - proof 1a: kolo_route_compute against sw/route's routing
// function (kolo_route_spec.vh), for all inputs at once: every torus size
// (cfg_dim_m1), node (cfg_node_id), enabled port set, route state, VC and
// header. Combinational: one SAT call (route.sby, or formal/route/route.sh).
//   det_port      == spec_det_port(rs)
//   adaptive_mask == spec_adaptive_mask(rs) & cfg_port_en
// and the lemmas the exhaustive part (route_enum) relies on, on two copies
// whose inputs differ wherever the lemma allows:
//   err_route depends on the route state, ring sizes and enabled ports only;
//   err_dst on the destination, node, ring sizes and whether the
//     deterministic port is the local one only;
//   err_len on the length and tail bit, err_vc on the vnet and VC bits only.
// -D KOLO_PLANT_ROUTE plants one difference (the -Z hop of one route state
// among 2^23 is reported as -Y): the proof must then fail and name it.
module route_miter (
    input wire [11:0] node_a,
    input wire [11:0] node_b,
    input wire [11:0] dims_a,
    input wire [11:0] dims_b,
    input wire [5:0]  en_a,
    input wire [5:0]  en_b,
    input wire [67:0] flit_a,
    input wire [67:0] flit_b
);
  `include "kolo_route_spec.vh"
  wire [2:0] det_a, det_b;
  wire [5:0] mask_a, mask_b;
  wire err_dst_a, err_len_a, err_vc_a, err_route_a;
  wire err_dst_b, err_len_b, err_vc_b, err_route_b;
  kolo_route_compute u_a (
      .cfg_node_id(node_a), .cfg_dim_m1(dims_a), .cfg_port_en(en_a), .flit(flit_a),
      .det_port(det_a), .adaptive_mask(mask_a), .err_dst(err_dst_a), .err_len(err_len_a),
      .err_vc(err_vc_a), .err_route(err_route_a)
  );
  kolo_route_compute u_b (
      .cfg_node_id(node_b), .cfg_dim_m1(dims_b), .cfg_port_en(en_b), .flit(flit_b),
      .det_port(det_b), .adaptive_mask(mask_b), .err_dst(err_dst_b), .err_len(err_len_b),
      .err_vc(err_vc_b), .err_route(err_route_b)
  );
  wire [22:0] rs_a = flit_a[58:36];
  wire [22:0] rs_b = flit_b[58:36];
`ifdef KOLO_PLANT_ROUTE
  // route state: 3 hops -Z, nothing else
  wire plant = rs_a == {8'd0, 4'd3, 4'd0, 4'd0, 3'b100};
  wire [2:0] det_seen = plant ? 3'd3 : det_a;
`else
  wire [2:0] det_seen = det_a;
`endif
  always @(*) begin
    assert (det_seen == spec_det_port(rs_a));
    assert (mask_a == (spec_adaptive_mask(rs_a) & en_a));
    if (rs_a == rs_b && dims_a == dims_b && en_a == en_b) assert (err_route_a == err_route_b);
    if (flit_a[11:0] == flit_b[11:0] && node_a == node_b && dims_a == dims_b &&
        (det_a == 3'd6) == (det_b == 3'd6))
      assert (err_dst_a == err_dst_b);
    if (flit_a[34:29] == flit_b[34:29] && flit_a[64] == flit_b[64]) assert (err_len_a == err_len_b);
    if (flit_a[28] == flit_b[28] && flit_a[67] == flit_b[67]) assert (err_vc_a == err_vc_b);
  end
endmodule
`default_nettype wire
