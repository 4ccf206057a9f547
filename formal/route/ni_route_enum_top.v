`default_nettype none
// ni_route_enum_top - Verilator top of ni_route_enum: the NI's routing table
// (kolo_ni_route: MMIO by node index, lookups by node id) and the service
// block's double-buffered table (kolo_svc_rt: bus by node index, lookups by
// node id), side by side, every port exposed.
module ni_route_enum_top (
    input  wire        clk,
    input  wire        rst,
    input  wire [11:0] cfg_dim_m1,
    // kolo_ni_route
    input  wire [2:0]  lk_req,
    input  wire [35:0] lk_id,
    output wire [2:0]  lk_gnt,
    output wire [2:0]  lk_rvalid,
    output wire [31:0] lk_entry,
    output wire        lk_ok,
    input  wire        mm_req,
    input  wire        mm_we,
    input  wire [11:0] mm_idx,
    input  wire [31:0] mm_wdata,
    output wire        mm_done,
    output wire [31:0] mm_rdata,
    output wire        mm_in,
    output wire        mm_chg,
    // kolo_svc_rt
    input  wire        rt_lk_valid,
    input  wire [11:0] rt_lk_id,
    output wire [31:0] rt_lk_entry,
    output wire [12:0] rt_entries,
    output wire        rt_copying,
    input  wire        sh_en,
    input  wire        sh_we,
    input  wire [11:0] sh_idx,
    input  wire [31:0] sh_wdata,
    output wire [31:0] sh_rdata,
    input  wire        epoch_we
);
  /* verilator lint_off PINCONNECTEMPTY */
  kolo_ni_route u_ni (
      .clk(clk), .rst(rst), .cfg_dim_m1(cfg_dim_m1), .lk_req(lk_req), .lk_id(lk_id),
      .lk_gnt(lk_gnt), .lk_rvalid(lk_rvalid), .lk_entry(lk_entry), .lk_ok(lk_ok),
      .mm_req(mm_req), .mm_we(mm_we), .mm_idx(mm_idx), .mm_wdata(mm_wdata), .mm_done(mm_done),
      .mm_rdata(mm_rdata), .mm_in(mm_in), .mm_chg(mm_chg), .ext_en(1'b0), .ext_lk_valid(),
      .ext_lk_id(), .ext_lk_entry(32'd0)
  );
  kolo_svc_rt u_rt (
      .clk(clk), .rst(rst), .dim_m1(cfg_dim_m1), .rt_lk_valid(rt_lk_valid), .rt_lk_id(rt_lk_id),
      .rt_lk_entry(rt_lk_entry), .rt_epoch(), .rt_switch(), .active(), .switches(),
      .entries(rt_entries), .copying(rt_copying), .sh_en(sh_en), .sh_we(sh_we), .sh_idx(sh_idx),
      .sh_wdata(sh_wdata), .sh_rdata(sh_rdata), .epoch_we(epoch_we), .epoch_data(16'd1)
  );
  /* verilator lint_on PINCONNECTEMPTY */
endmodule
`default_nettype wire
