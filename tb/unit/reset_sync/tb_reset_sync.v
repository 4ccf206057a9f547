`default_nettype none
// tb_reset_sync - unit-test top of the reset and synchroniser cells of rtl/common:
// kolo_reset_sync with 2 and 3 stages on clock a; kolo_reset_seq with clock a
// as its own and clocks b and c as its two domains; kolo_sync_word (20 bits)
// and kolo_sync_pulse from b to c, reset by that sequencer's outputs.
module tb_reset_sync (
    input  wire        clk_a,
    input  wire        clk_b,
    input  wire        clk_c,
    input  wire        rst_in,        // for the two kolo_reset_sync
    output wire        rs2_out,
    output wire        rs3_out,
    input  wire        seq_req,       // kolo_reset_seq rst_req
    input  wire [1:0]  dom_req,
    output wire        seq_rst,
    output wire [1:0]  dom_rst,
    output wire        seq_busy,
    input  wire [19:0] word_in,       // clk_b
    output wire [19:0] word_out,      // clk_c
    input  wire        pulse_in,      // clk_b
    output wire        pulse_out      // clk_c
);
  kolo_reset_sync #(.STAGES(2)) u_rs2 (.clk(clk_a), .rst_in(rst_in), .rst_out(rs2_out));
  kolo_reset_sync #(.STAGES(3)) u_rs3 (.clk(clk_a), .rst_in(rst_in), .rst_out(rs3_out));
  kolo_reset_seq #(.DOMAINS(2), .STAGES(3), .HOLD(8)) u_seq (
      .clk(clk_a), .rst_req(seq_req), .rst(seq_rst),
      .dom_clk({clk_c, clk_b}), .dom_req(dom_req), .dom_rst(dom_rst), .busy(seq_busy)
  );
  kolo_sync_word #(.WIDTH(20), .RESET_VALUE(20'h5A5A5)) u_word (
      .src_clk(clk_b), .src_rst(dom_rst[0]), .in(word_in),
      .dst_clk(clk_c), .dst_rst(dom_rst[1]), .out(word_out)
  );
  kolo_sync_pulse u_pulse (
      .src_clk(clk_b), .src_rst(dom_rst[0]), .src_pulse(pulse_in),
      .dst_clk(clk_c), .dst_rst(dom_rst[1]), .dst_pulse(pulse_out)
  );
endmodule
`default_nettype wire
