`default_nettype none
// tb_torus_formal - Icarus simulation of kolo_torus_formal's FORCE = 1
// scenario (no solver: with FORCE = 1 and FREE_CLS = 0 every input of the
// harness is fixed, so one simulation is the scenario the BMC unrolls).
// Prints one line per cycle (flits in the network, cycles without a move,
// the router outputs valid per node) and at the end "tb_torus_formal:
// delivered|deadlock|moving ..."; the VCD is tb_torus_formal.vcd when
// +vcd is given. Parameters as the harness's (iverilog -P).
module tb_torus_formal;
  parameter BUBBLE = 1;
  parameter ESC_SLOTS = 2;
  parameter [383:0] TABLES = 0;
  parameter [23:0] PORT_DOWN = 0;
  parameter [15:0] FDST = 16'h0123;
  parameter [3:0] CLS = 0;
  parameter [3:0] ORD = 4'hf;
  parameter CYCLES = 40;
  reg clk = 1'b0;
  kolo_torus_formal #(
      .BUBBLE(BUBBLE),
      .ESC_SLOTS(ESC_SLOTS),
      .TABLES(TABLES),
      .PORT_DOWN(PORT_DOWN),
      .FDST(FDST),
      .CLS(CLS),
      .ORD(ORD),
      .FORCE(1),
      .WIN(3)
  ) u_h (
      .clk(clk)
  );
  integer c;
  initial begin
    if ($test$plusargs("vcd")) begin
      $dumpfile("tb_torus_formal.vcd");
      $dumpvars(0, u_h);
    end
    for (c = 0; c < CYCLES; c = c + 1) begin
      #1 clk = 1'b1;
      #1 clk = 1'b0;
      $display("cycle %0d in_net %0d quiet %0d since_stop %0d drained %b out_valid %b %b %b %b errors %b", c + 1,
               u_h.in_net, u_h.quiet, u_h.since_stop, u_h.mid_packet == 0 && u_h.in_net == 0
               && u_h.node_busy == 0 && &u_h.credits_home,
               u_h.r_out_valid[27:21], u_h.r_out_valid[20:14],
               u_h.r_out_valid[13:7], u_h.r_out_valid[6:0], u_h.any_errors);
    end
    if (u_h.any_errors != 0) $display("tb_torus_formal: errors %b", u_h.any_errors);
    else if (u_h.in_net == 0) $display("tb_torus_formal: delivered");
    else if (u_h.quiet > 8) $display("tb_torus_formal: deadlock (quiet %0d, in_net %0d)", u_h.quiet, u_h.in_net);
    else $display("tb_torus_formal: moving (in_net %0d)", u_h.in_net);
    $finish;
  end
endmodule
`default_nettype wire
