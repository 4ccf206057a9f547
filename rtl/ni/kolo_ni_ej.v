`default_nettype none
// kolo_ni_ej - ejection side of the NI's router local port.
//
// The router sends flits on ej_valid/ej_flit only against EJECT_CREDITS per
// VC; this module holds one DEPTH-flit FIFO per VC (DEPTH must equal the
// router's EJECT_CREDITS) and returns one credit per freed slot on
// ej_credit_valid/ej_credit_vc (at most one per cycle; credits freed in the
// same cycle by both consumers wait in per-VC counters).
// Write side: per VC, the flits of a packet are counted; at its tail a
// verdict (flit count == declared len + 2) goes into a verdict FIFO. The
// router delivers head..tail framing but may deliver a short packet (see
// docs/packet-format.md section 8), which gets a bad verdict.
// Read side: one packet stream per virtual network (pk_*[0] requests, [1]
// responses). A packet is offered only once it is whole in its FIFO (its
// verdict is known), or from the cycle its tail is being written when its
// head is at the front of the FIFO (the verdict then comes straight from the
// write side; taken in that cycle, the verdict queued for it is dropped the
// next cycle): the consumer then pops its flits back to back, never
// waiting for the network. pk_ok is the verdict, valid with the head flit.
// Between the two VCs (classes) of a vnet, packets alternate round robin.
// Handshake: pk_valid/pk_ready per flit; the offered packet does not change
// until its head is popped.
// Each vnet's stream leaves through a skid register pair (kolo_ni_skid, one
// cycle of latency): the consumers' pk_ready logic (table checks) then ends
// there instead of running on into the FIFO pointers, the round robin and
// the credit return. At its full rate a whole packet still streams back to
// back. stat_pkt counts a head entering the skid stage.
module kolo_ni_ej #(
    parameter DEPTH = 64,
    parameter BUG_NO_SKIP = 0  // tests only: 1 = a packet taken at its tail keeps its queued verdict (tb_ni_ej must catch it)
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          ej_valid,
    input  wire [67:0]   ej_flit,
    output reg           ej_credit_valid,
    output reg  [1:0]    ej_credit_vc,
    output wire [1:0]    pk_valid,
    output wire [2*66-1:0] pk_flit,     // {head, tail, data}
    output wire [1:0]    pk_ok,
    input  wire [1:0]    pk_ready,
    output wire [1:0]    stat_pkt       // a packet head was popped (per vnet)
);
  `include "kolo_defs.vh"
  localparam CW = $clog2(DEPTH + 1);
  localparam VDEPTH = DEPTH / 2 + 1;

  wire in_head = ej_flit[KOLO_FLIT_HEAD];
  wire in_tail = ej_flit[KOLO_FLIT_TAIL];
  wire [1:0] in_vc = ej_flit[KOLO_FLIT_VC_LO+:2];

  wire [3:0] f_valid;
  wire [4*66-1:0] f_data;
  wire [3:0] f_pop;
  wire [3:0] v_valid;
  wire [3:0] v_ok;
  wire [3:0] v_pop;
  // per VC: the tail of the packet whose head is at the front of the FIFO is being
  // written (no whole packet queued before it), and that packet's verdict
  wire [3:0] t_byp;
  wire [3:0] t_ok;

  genvar v;
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_vc
      wire wr = ej_valid && in_vc == v[1:0];
      reg [5:0] cnt;   // flits of the current packet so far (saturates)
      reg [5:0] dlen;  // declared payload flits
      wire [5:0] cnt_now = in_head ? 6'd1 : ((cnt == 6'd63) ? cnt : cnt + 6'd1);
      wire [5:0] len_now = in_head ? ej_flit[KOLO_H0_LEN_LO+:6] : dlen;
      wire verdict = (len_now <= 6'd32) && ({1'b0, cnt_now} == {1'b0, len_now} + 7'd2);
      assign t_byp[v] = wr && in_tail && f_valid[v] && f_data[v*66+65] && !v_valid[v];
      assign t_ok[v] = verdict;
      always @(posedge clk) begin
        if (rst) begin
          cnt <= 6'd0;
          dlen <= 6'd0;
        end else if (wr) begin
          cnt <= cnt_now;
          dlen <= len_now;
        end
      end
      /* verilator lint_off UNUSEDSIGNAL */
      wire fin_ready, vin_ready;
      wire [CW-1:0] fcount;
      wire [$clog2(VDEPTH+1)-1:0] vcount;
      /* verilator lint_on UNUSEDSIGNAL */
      kolo_fifo_sync #(
          .WIDTH(66),
          .DEPTH(DEPTH)
      ) u_fifo (
          .clk(clk),
          .rst(rst),
          .in_valid(wr),
          .in_ready(fin_ready),
          .in_data(ej_flit[65:0]),
          .out_valid(f_valid[v]),
          .out_ready(f_pop[v]),
          .out_data(f_data[v*66+:66]),
          .count(fcount)
      );
      // at most DEPTH/2 packets (two flits or more) fit in the flit FIFO
      kolo_fifo_sync #(
          .WIDTH(1),
          .DEPTH(VDEPTH)
      ) u_verdict (
          .clk(clk),
          .rst(rst),
          .in_valid(wr && in_tail),
          .in_ready(vin_ready),
          .in_data(verdict),
          .out_valid(v_valid[v]),
          .out_ready(v_pop[v]),
          .out_data(v_ok[v]),
          .count(vcount)
      );
`ifndef SYNTHESIS
`include "kolo_assert.vh"
      // the router sends against credits: a write always finds room
      always @(posedge clk) if (!rst) `KOLO_ASSERT(!(wr && !fin_ready));
`endif
    end
  endgenerate

  // ---- read side: one stream per vnet ----------------------------------------
  genvar n;
  generate
    for (n = 0; n < 2; n = n + 1) begin : g_vnet
      localparam integer V0 = 2 * n;
      localparam integer V1 = 2 * n + 1;
      reg busy;   // inside a packet (head popped, tail not yet)
      reg have;   // a head is offered and must stay offered
      reg cur;    // class being offered / streamed
      reg last;   // class of the last packet (round robin)
      wire c0 = f_valid[V0] && f_data[V0*66+65] && (v_valid[V0] || t_byp[V0]);
      wire c1 = f_valid[V1] && f_data[V1*66+65] && (v_valid[V1] || t_byp[V1]);
      wire pick = (c0 && c1) ? !last : c1;
      wire sel = (busy || have) ? cur : pick;
      wire [65:0] fl = sel ? f_data[V1*66+:66] : f_data[V0*66+:66];
      wire fv = sel ? f_valid[V1] : f_valid[V0];
      wire offer = busy ? fv : (have || c0 || c1);
      wire o_ready;
      wire fire = offer && o_ready;
      wire head = !busy;
      wire ok = sel ? (v_valid[V1] ? v_ok[V1] : t_ok[V1]) : (v_valid[V0] ? v_ok[V0] : t_ok[V0]);
      // a head taken from the write side: its verdict, queued this cycle, is dropped next cycle
      wire byp = sel ? !v_valid[V1] : !v_valid[V0];
      // output pipeline stage (see above): cuts the consumers' ready path
      kolo_ni_skid #(
          .WIDTH(67)
      ) u_out (
          .clk(clk),
          .rst(rst),
          .in_valid(offer),
          .in_ready(o_ready),
          .in_data({ok, fl}),
          .out_valid(pk_valid[n]),
          .out_ready(pk_ready[n]),
          .out_data({pk_ok[n], pk_flit[n*66+:66]})
      );
      assign f_pop[V0] = fire && !sel;
      assign f_pop[V1] = fire && sel;
      reg [1:0] skip;  // per class: the verdict at the front is that of a packet taken by t_byp
      assign v_pop[V0] = (fire && head && !sel && !byp) || skip[0];
      assign v_pop[V1] = (fire && head && sel && !byp) || skip[1];
      always @(posedge clk) begin
        if (rst) skip <= 2'b00;
        else skip <= {fire && head && sel && byp, fire && head && !sel && byp} & {2{BUG_NO_SKIP == 0}};
      end
      assign stat_pkt[n] = fire && head;
      always @(posedge clk) begin
        if (rst) begin
          busy <= 1'b0;
          have <= 1'b0;
          cur <= 1'b0;
          last <= 1'b1;
        end else begin
          if (!busy && offer) cur <= sel;
          if (fire) begin
            have <= 1'b0;
            if (head) last <= sel;
            busy <= !fl[64];
          end else if (!busy && offer) begin
            have <= 1'b1;
          end
        end
      end
`ifndef SYNTHESIS
`include "kolo_assert.vh"
      // a packet is read out only once it is whole: its flits never run dry
      always @(posedge clk) if (!rst) `KOLO_ASSERT(!(busy && !fv));
`endif
    end
  endgenerate

  // ---- credit return: pending credits per VC, one per cycle --------------------
  reg [4*CW-1:0] pend;
  reg [1:0] rr;
  wire [3:0] has;
  genvar k;
  generate
    for (k = 0; k < 4; k = k + 1) begin : g_has
      assign has[k] = (pend[k*CW+:CW] != {CW{1'b0}}) || f_pop[k];
    end
  endgenerate
  // rotating priority: the search starts at VC rr
  wire [7:0] has2 = {has, has} >> rr;
  wire unused_has2 = &{1'b0, has2[7:3]};
  wire [1:0] off = has2[0] ? 2'd0 : has2[1] ? 2'd1 : has2[2] ? 2'd2 : 2'd3;
  wire [1:0] ret_vc = rr + off;
  wire ret = |has;
  integer i;
  always @(posedge clk) begin
    if (rst) begin
      pend <= {4*CW{1'b0}};
      rr <= 2'd0;
      ej_credit_valid <= 1'b0;
      ej_credit_vc <= 2'd0;
    end else begin
      for (i = 0; i < 4; i = i + 1)
        pend[i*CW+:CW] <= pend[i*CW+:CW] + {{(CW - 1) {1'b0}}, f_pop[i]} -
                          {{(CW - 1) {1'b0}}, (ret && ret_vc == i[1:0])};
      ej_credit_valid <= ret;
      ej_credit_vc <= ret_vc;
      if (ret) rr <= ret_vc + 2'd1;
    end
  end
endmodule
`default_nettype wire
