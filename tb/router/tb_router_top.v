`default_nettype none
// tb_router_top - Verilator top of the single-router test (tb/router/tb_router.cpp).
//
// One kolo_router as kolo_torus builds it with ideal links (ESC_SLOTS 3,
// ADAPT_DEPTH 128, LOCAL_DEPTH 80, EJECT_CREDITS 64, BUBBLE 1, network outputs
// not registered, local output registered); the node, ring sizes and enabled ports are the
// run-time inputs cfg_*, so one binary serves every configuration. The harness
// plays all seven neighbours on the router's own ports.
// Besides the router's ports it exposes, through hierarchical references (test
// only, not synthesisable), the router's output credit counters and their
// sticky protocol-error bits and the free packet slots of the class-0 VCs,
// so that the harness can compare them with its own mirror every cycle. Keep
// the numbers in step with tb_router.cpp (kEscSlots, kAdaptDepth, kLocalDepth,
// kEjectCredits); the harness checks the counters after reset.
// Built without --hierarchical: the router's hier_block marker then has no effect.
module tb_router_top (
    input  wire            clk,
    input  wire            rst,
    input  wire [11:0]     cfg_node_id,
    input  wire [11:0]     cfg_dim_m1,
    input  wire [5:0]      cfg_port_en,
    input  wire [5:0]      port_down,
    input  wire [6:0]      in_valid,
    input  wire [7*68-1:0] in_flit,
    output wire [6:0]      in_credit_valid,
    output wire [7*2-1:0]  in_credit_vc,
    output wire [6:0]      out_valid,
    output wire [7*68-1:0] out_flit,
    output wire [6:0]      out_sunk,
    input  wire [6:0]      out_credit_valid,
    input  wire [7*2-1:0]  out_credit_vc,
    output wire [63:0]     stat_errors,
    output wire [31:0]     stat_fault_drops,
    output wire [7*32-1:0] stat_out_flits,
    output wire [28*8-1:0] dbg_vc_occ,
    output wire [28*6-1:0] dbg_vc_route,
    output wire [28*8-1:0] mon_out_credits,  // router's credits per output VC (port*4+vc)
    output wire [27:0]     mon_credit_error, // sticky over/underflow of those counters
    output wire [7*8-1:0]  mon_slots         // free slots of VC 0 and 2 per port ([p*8 +: 4], [p*8+4 +: 4])
);
  kolo_router #(
      .ESC_SLOTS(3),
      .ADAPT_DEPTH(128),
      .LOCAL_DEPTH(80),
      .EJECT_CREDITS(64),
      .BUBBLE(1),
      .LOCAL_WHOLE_PKT(1),
      .OUT_REG(7'h40)
  ) u (
      .clk(clk),
      .rst(rst),
      .cfg_node_id(cfg_node_id),
      .cfg_dim_m1(cfg_dim_m1),
      .cfg_port_en(cfg_port_en),
      .port_down(port_down),
      .in_valid(in_valid),
      .in_flit(in_flit),
      .in_credit_valid(in_credit_valid),
      .in_credit_vc(in_credit_vc),
      .out_valid(out_valid),
      .out_flit(out_flit),
      .out_sunk(out_sunk),
      .out_credit_valid(out_credit_valid),
      .out_credit_vc(out_credit_vc),
      .stat_errors(stat_errors),
      .stat_fault_drops(stat_fault_drops),
      .stat_out_flits(stat_out_flits),
      .dbg_vc_occ(dbg_vc_occ),
      .dbg_vc_route(dbg_vc_route)
  );

  assign mon_out_credits = u.mon_credits;
  assign mon_credit_error = u.credit_error;
  assign mon_slots = u.mon_slots;
endmodule
`default_nettype wire
