`default_nettype none
// route_enum_top - Verilator top of route_enum: kolo_route_compute (the RTL)
// beside the Verilog reference functions (kolo_route_spec.vh), same inputs.
module route_enum_top (
    input  wire [11:0] cfg_node_id,
    input  wire [11:0] cfg_dim_m1,
    input  wire [5:0]  cfg_port_en,
    input  wire [67:0] flit,
    input  wire [2:0]  port,          // for spec_advance
    output wire [2:0]  det_port,
    output wire [5:0]  adaptive_mask,
    output wire        err_dst,
    output wire        err_len,
    output wire        err_vc,
    output wire        err_route,
    output wire [2:0]  spec_det,
    output wire [5:0]  spec_mask,
    output wire [22:0] spec_next
);
  `include "kolo_route_spec.vh"
  kolo_route_compute u_rc (
      .cfg_node_id(cfg_node_id), .cfg_dim_m1(cfg_dim_m1), .cfg_port_en(cfg_port_en),
      .flit(flit), .det_port(det_port), .adaptive_mask(adaptive_mask), .err_dst(err_dst),
      .err_len(err_len), .err_vc(err_vc), .err_route(err_route),
      /* verilator lint_off PINCONNECTEMPTY */
      .productive()  // the hop-count use of each port: not part of proof 1 (yet)
      /* verilator lint_on PINCONNECTEMPTY */
  );
  assign spec_det = spec_det_port(flit[58:36]);
  assign spec_mask = spec_adaptive_mask(flit[58:36]);
  assign spec_next = spec_advance(flit[58:36], port);
endmodule
`default_nettype wire
