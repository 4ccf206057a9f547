`default_nettype none
// kolo_router_formal - formal harness of proof 2 (issue 19): one real
// kolo_router in a nondeterministic, protocol-legal environment, and the
// router's invariants as assertions (the router's own `ifdef FORMAL
// assertions and `KOLO_ASSERT guards are read too: run.sh, -formal).
//
// The router: node 0 of a 1x1xN ring (cfg_dim_m1 = {N-1, 0, 0}), ports Z+
// (4), Z- (5) and local (6) in use (cfg_port_en = 6'b110000), the X and Y
// inputs idle, no port down; the smallest legal buffers (ESC_SLOTS 2 = 68
// flits, ADAPT_DEPTH 35, LOCAL_DEPTH 34, EJECT_CREDITS 35); OUT_REG 7'h7f.
//
// Inputs Z+, Z- and local (j = 0, 1, 2): the upstream sends one packet at a
// time (a link carries a packet from head to tail; gaps are free), each flit
// only against a credit the router returned (it starts with the buffer
// depth per VC). A packet: VC free (4 VCs, the header's vnet = the VC's),
// `ordered` free, payload 0..MAX_LEN flits, a route state in Z only (hops
// 0..N-1, sign free, first and last step free, each to Z+ or Z-), the
// destination free in 0..N-1 unless the route ends here (then node 0).
// The header's source field carries a tag: {input, input VC class, serial,
// the Z route fields}; every body flit carries the tag and its index (1..).
// VNETS = 1 restricts the inputs to vnet 0 (VCs 0 and 1), a smaller model.
// Outputs Z+, Z- and local: the downstream returns one credit per cycle at
// most, per VC only for a flit it received (owed > 0), when it likes.
//
// Properties (every cycle from the one after reset):
//  P1 credits never exceed buffer space: per input VC, the upstream's credits
//     plus the flits buffered (dbg_vc_occ) plus the credit on its way back
//     = the buffer depth (conserved: none invented, none lost); per output
//     VC, the flits the downstream holds <= its depth (no flit without a
//     credit); the routers' counters (kolo_credit_counter !error, input occ)
//  P2 bubble rule: a head on class 0 of a ring port (Z+, Z-) leaves when
//     the downstream escape buffer holds at most ESC_SLOTS - 2 packets (room
//     for two maximum packets) if it enters the ring (from the local port,
//     from the other Z input -- a turn -- or from class 1), at most
//     ESC_SLOTS - 1 if it continues (class 0 straight on). The downstream's
//     packets are counted here from the port's flits and credits alone (a
//     packet holds its room until all its flits' credits are back).
//  P3 VC allocation: a head leaves on class 1 only on a port of its class-1
//     candidates (productive and enabled, or its deterministic port when none
//     is productive; none when ordered), on class 0 only on its deterministic
//     port, and on class 1 (or the local port) only with room downstream for
//     a maximum packet: a VC1 packet never waits on a port it cannot use
//     (cannot take whole). Nothing leaves on X or Y, nothing is sunk.
//  P4 no packet split or interleaved: at each output a head, then exactly
//     len + 1 flits on the same output VC with the head's tag and indexes
//     1, 2, ..., the last (only) one a tail; no head inside a packet.
//  P5 nothing is dropped (stat_errors = 0): the environment is legal.
// Negative control (run.sh -plant, make formal-router-plant): BUBBLE = 0,
// the router lets a class-0 packet enter a ring with one free slot: P2 must
// fail (it does at step 7). What is proved, how deep, and what is left out:
// formal/README.md, proof 2.
module kolo_router_formal #(
    parameter N       = 4,   // ring size (hops 0..N-1)
    parameter MAX_LEN = 1,   // payload flits of the longest packet (0..32)
    parameter BUBBLE  = 1,
    parameter ESC_SLOTS = 2,
    parameter VNETS   = 2    // 1: the inputs send on vnet 0 only (a smaller model)
) (
    input wire clk
);
  `include "kolo_defs.vh"

  localparam LOCAL_DEPTH = 34;
  localparam EJECT_CREDITS = 35;
  localparam ADAPT_DEPTH = 35;
  localparam ESC_DEPTH = ESC_SLOTS * KOLO_MAX_PKT;
  localparam [3:0] N_M1 = N - 1;

  reg init = 1'b1;
  always @(posedge clk) init <= 1'b0;
  wire rst = init;

  wire [6:0] in_valid, out_valid, in_credit_valid, out_credit_valid, out_sunk;
  wire [7*68-1:0] in_flit, out_flit;
  wire [7*2-1:0] in_credit_vc, out_credit_vc;
  wire [63:0] stat_errors;
  wire [28*8-1:0] occ;

  assign in_valid[3:0] = 4'd0;
  assign in_flit[0+:4*68] = {4 * 68{1'b0}};
  assign out_credit_valid[3:0] = 4'd0;
  assign out_credit_vc[0+:8] = 8'd0;

  // ---- upstream of inputs Z+, Z-, local ----------------------------------------------
  genvar j, v;
  generate
    for (j = 0; j < 3; j = j + 1) begin : g_in
      localparam integer P = 4 + j;
      localparam [1:0] JJ = j;
      (* anyseq *) wire want;
      (* anyseq *) wire [1:0] vc_pick;
      (* anyseq *) wire ordered;
      (* anyseq *) wire [5:0] len_pick;
      (* anyseq *) wire [1:0] hops_pick;
      (* anyseq *) wire sign_pick, fs_pick, fs_minus, ls_pick, ls_minus;
      (* anyseq *) wire [3:0] dst_pick;
      reg in_pkt = 1'b0;
      reg [5:0] left = 6'd0;   // flits still to send of the current packet
      reg [5:0] idx = 6'd0;    // index of the next body flit
      reg [1:0] cur_vc = 2'd0;
      reg [11:0] cur_tag = 12'd0;
      reg [1:0] serial = 2'd0;
      (* mem2reg *) reg [7:0] cred[0:3];
      integer q, qi;
      initial for (qi = 0; qi < 4; qi = qi + 1) cred[qi] = (P == 6) ? LOCAL_DEPTH : (qi % 2 == 0) ? ESC_DEPTH : ADAPT_DEPTH;

      wire [1:0] new_vc = {vc_pick[1] && VNETS > 1, vc_pick[0]};
      wire [5:0] len = (len_pick > MAX_LEN) ? MAX_LEN[5:0] : len_pick;
      wire [1:0] hops = ({2'b00, hops_pick} > N - 1) ? 2'd0 : hops_pick;
      wire ends_here = hops == 2'd0 && !fs_pick && !ls_pick;
      wire [3:0] dst_z = ends_here ? 4'd0 : (dst_pick > N_M1) ? 4'd0 : dst_pick;
      wire [22:0] rs = {ls_pick ? (ls_minus ? 3'd5 : 3'd4) : 3'd0, ls_pick,
                        fs_pick ? (fs_minus ? 3'd5 : 3'd4) : 3'd0, fs_pick,
                        2'b00, hops, 4'd0, 4'd0, sign_pick, 2'b00};
      // tag: {input j, input VC class, serial, hops, sign, fs, fs -, ls, ls -}
      wire [11:0] tag = {JJ, vc_pick[0], serial, hops, sign_pick, fs_pick, fs_minus, ls_pick,
                         ls_minus};
      wire [63:0] hdr0 = {5'd0, rs, ordered, len, new_vc[1], 4'd0, tag, {dst_z, 8'd0}};
      wire [1:0] vc = in_pkt ? cur_vc : new_vc;
      wire have_credit = cred[vc] != 8'd0;
      wire go = !rst && want && have_credit;
      wire first = !in_pkt;
      wire last = in_pkt && left == 6'd1;
      wire [63:0] data = first ? hdr0 : {46'd0, idx, cur_tag};
      assign in_valid[P] = go;
      assign in_flit[P*68+:68] = {vc, first, last, data};

      wire cr_back = in_credit_valid[P];
      wire [1:0] cr_vc = in_credit_vc[P*2+:2];
      always @(posedge clk) begin
        if (go) begin
          if (first) begin
            in_pkt <= 1'b1;
            serial <= serial + 2'd1;
            cur_vc <= new_vc;
            cur_tag <= tag;
            left <= len + 6'd1;
            idx <= 6'd1;
          end else begin
            left <= left - 6'd1;
            idx <= idx + 6'd1;
            if (last) in_pkt <= 1'b0;
          end
        end
        if (!rst)
          for (q = 0; q < 4; q = q + 1)
            cred[q] <= cred[q] - {7'd0, go && vc == q[1:0]} + {7'd0, cr_back && cr_vc == q[1:0]};
      end
`ifdef FORMAL
      // P1, input side: credits are conserved: the upstream's credits, the
      // flits buffered and the credit on its way back (the router registers
      // it a cycle after the flit left) add up to the buffer depth in every
      // cycle. So the router never holds more than its depth, returns a
      // credit only for a flit it took, and loses none.
      for (v = 0; v < 4; v = v + 1) begin : g_vc
        localparam integer DEPTH = (P == 6) ? LOCAL_DEPTH : (v % 2 == 0) ? ESC_DEPTH : ADAPT_DEPTH;
        wire [7:0] o = occ[(P*4+v)*8+:8];
        wire back = cr_back && cr_vc == v;
        always @(posedge clk) if (!rst) assert ({1'b0, cred[v]} + {1'b0, o} + {8'd0, back} == DEPTH);
      end
`endif
    end
  endgenerate

  // ---- downstream of outputs Z+, Z-, local ------------------------------------------
  generate
    for (j = 0; j < 3; j = j + 1) begin : g_out
      localparam integer P = 4 + j;
      localparam [1:0] JJ = j;
      (* anyseq *) wire give;
      (* anyseq *) wire [1:0] give_vc;
      wire ov = out_valid[P];
      wire [67:0] of = out_flit[P*68+:68];
      wire [1:0] ovc = of[67:66];
      wire ohead = of[KOLO_FLIT_HEAD];
      wire otail = of[KOLO_FLIT_TAIL];
      (* mem2reg *) reg [7:0] owed[0:3];     // flits the downstream holds per VC (sent, credit not back)
      integer q, qi;
      initial for (qi = 0; qi < 4; qi = qi + 1) owed[qi] = 8'd0;
      wire ret = !rst && give && owed[give_vc] != 8'd0;
      assign out_credit_valid[P] = ret;
      assign out_credit_vc[P*2+:2] = give_vc;
      always @(posedge clk)
        if (!rst)
          for (q = 0; q < 4; q = q + 1)
            owed[q] <= owed[q] + {7'd0, ov && ovc == q[1:0]} - {7'd0, ret && give_vc == q[1:0]};

      // the downstream escape buffers in packets (ring ports, vnet n = k):
      // sizes still owed per packet, oldest first; `open`: the newest has
      // not had its tail yet
      (* mem2reg *) reg [5:0] sz0[0:1];
      (* mem2reg *) reg [5:0] sz1[0:1];
      (* mem2reg *) reg [5:0] sz2[0:1];
      (* mem2reg *) reg [1:0] np[0:1];
      (* mem2reg *) reg open[0:1];
      initial for (qi = 0; qi < 2; qi = qi + 1) begin
        sz0[qi] = 6'd0; sz1[qi] = 6'd0; sz2[qi] = 6'd0; np[qi] = 2'd0; open[qi] = 1'b0;
      end
      reg [5:0] t0, t1, t2;
      reg [1:0] tn;
      reg topen;
      reg ovf;
      integer k;
      always @(posedge clk)
        if (!rst && P != 6)
          for (k = 0; k < 2; k = k + 1) begin
            t0 = sz0[k]; t1 = sz1[k]; t2 = sz2[k]; tn = np[k]; topen = open[k];
            if (ov && ovc == {k[0], 1'b0}) begin
              if (ohead) begin
                case (tn)
                  2'd0: t0 = 6'd1;
                  2'd1: t1 = 6'd1;
                  default: t2 = 6'd1;
                endcase
                if (tn != 2'd3) tn = tn + 2'd1;
                topen = !otail;
              end else begin
                case (tn)
                  2'd1: t0 = t0 + 6'd1;
                  2'd2: t1 = t1 + 6'd1;
                  default: t2 = t2 + 6'd1;
                endcase
                if (otail) topen = 1'b0;
              end
            end
            if (ret && give_vc == {k[0], 1'b0}) begin
              t0 = t0 - 6'd1;
              if (t0 == 6'd0 && (tn > 2'd1 || !topen)) begin
                t0 = t1; t1 = t2; t2 = 6'd0; tn = tn - 2'd1;
              end
            end
            sz0[k] <= t0; sz1[k] <= t1; sz2[k] <= t2; np[k] <= tn; open[k] <= topen;
          end

      // packet framing at this output (P4)
      reg act = 1'b0;
      reg [1:0] a_vc = 2'd0;
      reg [11:0] a_tag = 12'd0;
      reg [5:0] a_idx = 6'd0, a_len = 6'd0;
      always @(posedge clk)
        if (!rst && ov) begin
          if (ohead) begin
            act <= 1'b1;
            a_vc <= ovc;
            a_tag <= of[KOLO_H0_SRC_LO+:12];
            a_len <= of[KOLO_H0_LEN_LO+:6];
            a_idx <= 6'd1;
          end else begin
            a_idx <= a_idx + 6'd1;
            if (otail) act <= 1'b0;
          end
        end

      // the head's origin and its route at this router, from its tag
      wire [11:0] tg = of[KOLO_H0_SRC_LO+:12];
      wire [1:0] t_in = tg[11:10];
      wire t_cls = tg[9];
      wire [1:0] t_hops = tg[6:5];
      wire t_sign = tg[4], t_fs = tg[3], t_fsm = tg[2], t_ls = tg[1], t_lsm = tg[0];
      wire h_ordered = of[KOLO_H0_ORDERED];
      wire [2:0] det = t_fs ? (t_fsm ? 3'd5 : 3'd4) : (t_hops != 2'd0) ? (t_sign ? 3'd5 : 3'd4) :
                       t_ls ? (t_lsm ? 3'd5 : 3'd4) : 3'd6;
      wire [6:0] det_oh = 7'd1 << det;
      wire [6:0] prod = (!t_fs && t_hops != 2'd0) ? (t_sign ? 7'b0100000 : 7'b0010000) : 7'd0;
      wire [6:0] cand1 = h_ordered ? 7'd0 : (prod != 7'd0) ? prod : det_oh;
      wire [6:0] me = 7'd1 << P;
      // continuing in the ring: class 0 in, from the opposite Z input, class 0 out
      wire continuing = P != 6 && t_cls == 1'b0 && t_in == (JJ ^ 2'd1);
      localparam integer ODEPTH1 = (P == 6) ? EJECT_CREDITS : ADAPT_DEPTH;
      localparam integer ODEPTH0 = (P == 6) ? EJECT_CREDITS : ESC_DEPTH;

`ifdef FORMAL
      always @(posedge clk)
        if (!rst) begin
          // P1: never more flits downstream than its buffer holds
          assert (owed[0] <= ODEPTH0 && owed[2] <= ODEPTH0);
          assert (owed[1] <= ODEPTH1 && owed[3] <= ODEPTH1);
          if (ov) begin
            // P4
            if (act) begin
              assert (!ohead);
              assert (ovc == a_vc);
              assert (of[11:0] == a_tag && of[17:12] == a_idx);
              assert (otail == (a_idx == a_len + 6'd1));
            end else begin
              assert (ohead && !otail);
            end
            if (ohead) begin
              // P3: where a head may go, on which class
              if (ovc[0]) assert ((cand1 & me) != 7'd0);
              else assert (det == P);
              // P3: VC1 (and ejection) only with room for a whole packet
              // (the owed count before this flit)
              if (ovc[0] || P == 6) assert (owed[ovc] <= (ovc[0] ? ODEPTH1 : ODEPTH0) - KOLO_MAX_PKT);
              // P2: the bubble rule, in packets of the downstream escape VC
              if (P != 6 && !ovc[0]) begin
                if (continuing) assert (np[ovc[1]] <= ESC_SLOTS - 1);
                else assert (np[ovc[1]] <= ESC_SLOTS - 2);
              end
            end
          end
        end
`endif
    end
  endgenerate

  // ---- the router -------------------------------------------------------------------
  kolo_router #(
      .ESC_SLOTS(ESC_SLOTS),
      .ADAPT_DEPTH(ADAPT_DEPTH),
      .LOCAL_DEPTH(LOCAL_DEPTH),
      .EJECT_CREDITS(EJECT_CREDITS),
      .BUBBLE(BUBBLE),
      .LOCAL_WHOLE_PKT(1),
      .OUT_REG(7'h7f)
  ) u_router (
      .clk(clk),
      .rst(rst),
      .cfg_node_id(12'd0),
      .cfg_dim_m1({N_M1, 8'd0}),
      .cfg_port_en(6'b110000),
      .port_down(6'd0),
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
      .stat_out_flits(),
      .stat_fault_drops(),
      .dbg_vc_occ(occ),
      .dbg_vc_route()
  );

`ifdef FORMAL
  always @(posedge clk)
    if (!rst) begin
      assert (out_valid[3:0] == 4'd0);  // P3: X and Y are not in use
      assert (out_sunk == 7'd0);
      assert (stat_errors == 64'd0);    // P5
    end
`endif
endmodule
`default_nettype wire
