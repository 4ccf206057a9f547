`default_nettype none
// kolo_torus - a DIM_X x DIM_Y x DIM_Z torus of kolo_router instances.
//
// Node index n = x + DIM_X*(y + DIM_Y*z); node id = {z,y,x} (4 bits each).
// Router n's output port p (X+ X- Y+ Y- Z+ Z-) reaches, through one link, the
// input port p^1 of its neighbour in that direction (a flit travelling +X
// arrives on the neighbour's X- port). A dimension of size 1 has no links: its
// ports are disabled. In a dimension of size 2 both links join the same pair.
// The local ports of all routers are the torus' inj_* (into the network) and
// ej_* (out of it) buses, credit-based like every router channel: send a flit
// on inj_* only with a credit for its VC (VC_DEPTH per VC after reset: the
// router's LOCAL_DEPTH; one returns on inj_credit_* each time the router
// frees a slot); the router sends on ej_* only against EJECT_CREDITS per VC,
// returned on ej_credit_*, one cycle after it switched the flit (its local
// output is registered).
// Router buffers of network ports: ESC_SLOTS maximum packets per class-0 VC,
// ADAPT_DEPTH flits per class-1 VC (kolo_router).
// Links: REAL_LINKS=0 joins the routers with kolo_link_ideal (fast runs);
// with LINK_LATENCY >= 1 the link's first register follows the router's
// crossbar directly (router OUT_REG 0 on network ports: a hop is 1 router
// cycle + LINK_LATENCY); LINK_LATENCY 0 and real links get registered
// router outputs;
// REAL_LINKS=1 puts a kolo_link end on every network port (index n*6+p),
// makes a link whose state is down (retrain budget spent) a down port of its
// router (kolo_router port_down, besides link_down), and
// brings its lanes out on lane_tx/lane_rx/lane_slip, for the board (or the
// testbench's lane models) to connect: end n*6+p belongs with end m*6+(p^1)
// of the neighbour m in direction p. All lanes run on lane_clk here (each
// end's rx_lane_clk is its neighbour's tx lane clock). With ideal links the
// lane and link status ports are constant.
module kolo_torus #(
    parameter DIM_X = 2,
    parameter DIM_Y = 2,
    parameter DIM_Z = 2,
    parameter LINK_LATENCY = 1,
    parameter VC_DEPTH = 80,        // local input buffer per VC (injection credits)
    parameter EJECT_CREDITS = 64,
    parameter ESC_SLOTS = 3,
    parameter ADAPT_DEPTH = 128,
    parameter BUBBLE = 1,
    parameter REAL_LINKS = 0,
    parameter LANES = 1,
    parameter LINK_TRAIN_BUDGET = 50000,  // core cycles a link may train before it is declared down
    parameter N = DIM_X * DIM_Y * DIM_Z
) (
    input  wire            clk,
    input  wire            rst,
    // local ports: injection
    input  wire [N-1:0]    inj_valid,
    input  wire [N*68-1:0] inj_flit,
    output wire [N-1:0]    inj_credit_valid,
    output wire [N*2-1:0]  inj_credit_vc,
    // local ports: ejection
    output wire [N-1:0]    ej_valid,
    output wire [N*68-1:0] ej_flit,
    input  wire [N-1:0]    ej_credit_valid,
    input  wire [N*2-1:0]  ej_credit_vc,
    // every router's network output ports, for monitors: index n*6+p
    output wire [N*6-1:0]  mon_valid,
    output wire [N*6*68-1:0] mon_flit,
    output wire [N*6-1:0]  mon_sunk,   // mon_flit holds a flit dropped at a down link
    // status and debug of every router (see kolo_router)
    // index n*6+p: the link leaving node n through port p is down (set both
    // ends): its router drops packets for it whole and never waits for it
    input  wire [N*6-1:0]  link_down,
    output wire [N*32-1:0] stat_fault_drops,  // per router: packets dropped at down links
    output wire [N*64-1:0] stat_errors,
    output wire [N*7*32-1:0] stat_out_flits,
    output wire [N*28*8-1:0] dbg_vc_occ,
    output wire [N*28*6-1:0] dbg_vc_route,
    // lanes and link status (REAL_LINKS=1), index n*6+p
    input  wire              lane_clk,
    input  wire              lane_rst,
    output wire [N*6*66*LANES-1:0] lane_tx,
    input  wire [N*6*66*LANES-1:0] lane_rx,
    output wire [N*6*LANES-1:0]    lane_slip,
    output wire [N*6-1:0]    link_up,
    output wire [N*6*2-1:0]  link_state,
    output wire [N*6*512-1:0] link_counters
);
  localparam [3:0] DXM1 = DIM_X[3:0] - 4'd1;
  localparam [3:0] DYM1 = DIM_Y[3:0] - 4'd1;
  localparam [3:0] DZM1 = DIM_Z[3:0] - 4'd1;
  localparam [5:0] PORT_EN = {{2{DIM_Z > 1}}, {2{DIM_Y > 1}}, {2{DIM_X > 1}}};
  localparam [0:0] NET_REG = (REAL_LINKS != 0) || (LINK_LATENCY == 0);
  localparam [6:0] OUT_REG = {1'b1, {6{NET_REG}}};
  // the deepest VC buffer of a network port: what a link end must hold in flight
  localparam integer ESC_DEPTH = ESC_SLOTS * 34;
  localparam integer NET_DEPTH = (ESC_DEPTH > ADAPT_DEPTH) ? ESC_DEPTH : ADAPT_DEPTH;
  // a real link's transmit buffer per VC: a power of two holding NET_DEPTH flits (the router
  // limits its buffers to 255 flits)
  localparam integer LINK_VC_BUF = (NET_DEPTH > 128) ? 256 : 128;

  // router-side wires, index n*7+p
  wire [N*7-1:0]    r_in_valid;
  wire [N*7*68-1:0] r_in_flit;
  wire [N*7-1:0]    r_in_credit_valid;
  wire [N*7*2-1:0]  r_in_credit_vc;
  wire [N*7-1:0]    r_out_valid;
  wire [N*7*68-1:0] r_out_flit;
  wire [N*7-1:0]    r_out_sunk;
  // real links: a link that is down (its retrain budget ran out) is a down
  // port for its router, as if the firmware had said so through link_down
  wire [N*6-1:0]    link_dead;
  wire [N*7-1:0]    r_out_credit_valid;
  wire [N*7*2-1:0]  r_out_credit_vc;

  wire unused_lane_clk = &{1'b0, lane_clk, lane_rst};  // used only with REAL_LINKS

  genvar n, p;
  generate
    for (n = 0; n < N; n = n + 1) begin : g_node
      localparam integer X = n % DIM_X;
      localparam integer Y = (n / DIM_X) % DIM_Y;
      localparam integer Z = n / (DIM_X * DIM_Y);
      localparam [11:0] NODE_ID = {Z[3:0], Y[3:0], X[3:0]};

      kolo_router #(
          .ESC_SLOTS(ESC_SLOTS),
          .ADAPT_DEPTH(ADAPT_DEPTH),
          .LOCAL_DEPTH(VC_DEPTH),
          .EJECT_CREDITS(EJECT_CREDITS),
          .BUBBLE(BUBBLE),
          .OUT_REG(OUT_REG)
      ) u_router (
          .clk(clk),
          .rst(rst),
          .cfg_node_id(NODE_ID),
          .cfg_dim_m1({DZM1, DYM1, DXM1}),
          .cfg_port_en(PORT_EN),
          .port_down((link_down[n*6+:6] | link_dead[n*6+:6]) & PORT_EN),
          .in_valid(r_in_valid[n*7+:7]),
          .in_flit(r_in_flit[n*7*68+:7*68]),
          .in_credit_valid(r_in_credit_valid[n*7+:7]),
          .in_credit_vc(r_in_credit_vc[n*7*2+:7*2]),
          .out_valid(r_out_valid[n*7+:7]),
          .out_flit(r_out_flit[n*7*68+:7*68]),
          .out_sunk(r_out_sunk[n*7+:7]),
          .out_credit_valid(r_out_credit_valid[n*7+:7]),
          .out_credit_vc(r_out_credit_vc[n*7*2+:7*2]),
          .stat_fault_drops(stat_fault_drops[n*32+:32]),
          .stat_errors(stat_errors[n*64+:64]),
          .stat_out_flits(stat_out_flits[n*7*32+:7*32]),
          .dbg_vc_occ(dbg_vc_occ[n*28*8+:28*8]),
          .dbg_vc_route(dbg_vc_route[n*28*6+:28*6])
      );

      // local port (it never sinks: the local output is never down)
      wire unused_local_sunk = &{1'b0, r_out_sunk[n*7+6]};
      assign r_in_valid[n*7+6]               = inj_valid[n];
      assign r_in_flit[(n*7+6)*68+:68]       = inj_flit[n*68+:68];
      assign inj_credit_valid[n]             = r_in_credit_valid[n*7+6];
      assign inj_credit_vc[n*2+:2]           = r_in_credit_vc[(n*7+6)*2+:2];
      assign ej_valid[n]                     = r_out_valid[n*7+6];
      assign ej_flit[n*68+:68]               = r_out_flit[(n*7+6)*68+:68];
      assign r_out_credit_valid[n*7+6]       = ej_credit_valid[n];
      assign r_out_credit_vc[(n*7+6)*2+:2]   = ej_credit_vc[n*2+:2];

      for (p = 0; p < 6; p = p + 1) begin : g_port
        localparam integer D = p / 2;
        localparam integer MINUS = p % 2;
        localparam integer SIZE = (D == 0) ? DIM_X : (D == 1) ? DIM_Y : DIM_Z;
        localparam integer C = (D == 0) ? X : (D == 1) ? Y : Z;
        localparam integer C_NEXT = (MINUS != 0) ? (C + SIZE - 1) % SIZE : (C + 1) % SIZE;
        localparam integer M = (D == 0) ? (C_NEXT + DIM_X * (Y + DIM_Y * Z)) :
                               (D == 1) ? (X + DIM_X * (C_NEXT + DIM_Y * Z)) :
                                          (X + DIM_X * (Y + DIM_Y * C_NEXT));
        localparam integer Q = p ^ 1;  // the neighbour's port facing back

        assign mon_valid[n*6+p]          = r_out_valid[n*7+p];
        assign mon_flit[(n*6+p)*68+:68]  = r_out_flit[(n*7+p)*68+:68];
        assign mon_sunk[n*6+p]           = r_out_sunk[n*7+p];

        localparam integer MX = M % DIM_X;
        localparam integer MY = (M / DIM_X) % DIM_Y;
        localparam integer MZ = M / (DIM_X * DIM_Y);
        localparam [11:0] PEER_ID = {MZ[3:0], MY[3:0], MX[3:0]};

        if (SIZE > 1 && REAL_LINKS != 0) begin : g_real
          // (a parameter set equal to kolo_link's defaults would make Verilator
          // 5.006 inline the link instead of using its hier_block library)
          kolo_link #(
              .LANES(LANES),
              .VC_BUF(LINK_VC_BUF),
              .OUT_CREDITS(NET_DEPTH),
              .TRAIN_BUDGET(LINK_TRAIN_BUDGET)
          ) u_link (
              .clk(clk),
              .rst(rst),
              .phy_rst(rst),
              .cfg_node_id(NODE_ID),
              .cfg_port(p[2:0]),
              .cfg_peer_id(PEER_ID),
              .cfg_peer_port(Q[2:0]),
              .tx_valid(r_out_valid[n*7+p]),
              .tx_flit(r_out_flit[(n*7+p)*68+:68]),
              .tx_credit_valid(r_out_credit_valid[n*7+p]),
              .tx_credit_vc(r_out_credit_vc[(n*7+p)*2+:2]),
              .rx_valid(r_in_valid[n*7+p]),
              .rx_flit(r_in_flit[(n*7+p)*68+:68]),
              .rx_credit_valid(r_in_credit_valid[n*7+p]),
              .rx_credit_vc(r_in_credit_vc[(n*7+p)*2+:2]),
              .link_up(link_up[n*6+p]),
              .stat_state(link_state[(n*6+p)*2+:2]),
              /* verilator lint_off PINCONNECTEMPTY */  // mis-cabling is counted in stat_counters
              .stat_miscabled(),
              .stat_peer_valid(),
              .stat_peer_id(),
              .stat_peer_port(),
              .stat_peer_seen(),
              /* verilator lint_on PINCONNECTEMPTY */
              .stat_counters(link_counters[(n*6+p)*512+:512]),
              .tx_lane_clk(lane_clk),
              .tx_lane_rst(lane_rst),
              .tx_lane_ready(1'b1),
              .tx_lane_data(lane_tx[(n*6+p)*66*LANES+:66*LANES]),
              .rx_lane_clk(lane_clk),
              .rx_lane_rst(lane_rst),
              .rx_lane_valid({LANES{1'b1}}),
              .rx_lane_data(lane_rx[(n*6+p)*66*LANES+:66*LANES]),
              .rx_lane_slip(lane_slip[(n*6+p)*LANES+:LANES])
          );
          assign link_dead[n*6+p] = link_state[(n*6+p)*2+:2] == 2'd0;
        end else if (SIZE > 1) begin : g_link
          wire unused_lane = &{1'b0, lane_rx[(n*6+p)*66*LANES+:66*LANES]};
          assign lane_tx[(n*6+p)*66*LANES+:66*LANES] = {66*LANES{1'b0}};
          assign lane_slip[(n*6+p)*LANES+:LANES] = {LANES{1'b0}};
          assign link_up[n*6+p] = 1'b1;
          assign link_state[(n*6+p)*2+:2] = 2'd2;
          assign link_counters[(n*6+p)*512+:512] = 512'd0;
          assign link_dead[n*6+p] = 1'b0;
          kolo_link_ideal #(
              .LATENCY(LINK_LATENCY)
          ) u_link (
              .clk(clk),
              .rst(rst),
              .tx_valid(r_out_valid[n*7+p]),
              .tx_flit(r_out_flit[(n*7+p)*68+:68]),
              .tx_credit_valid(r_out_credit_valid[n*7+p]),
              .tx_credit_vc(r_out_credit_vc[(n*7+p)*2+:2]),
              .rx_valid(r_in_valid[M*7+Q]),
              .rx_flit(r_in_flit[(M*7+Q)*68+:68]),
              .rx_credit_valid(r_in_credit_valid[M*7+Q]),
              .rx_credit_vc(r_in_credit_vc[(M*7+Q)*2+:2]),
              /* verilator lint_off PINCONNECTEMPTY */  // the ideal link is always up
              .link_up()
              /* verilator lint_on PINCONNECTEMPTY */
          );
        end else begin : g_absent
          // no neighbour: the credits this port returns go nowhere
          wire unused_credit = &{1'b0, r_in_credit_valid[n*7+p], r_in_credit_vc[(n*7+p)*2+:2],
                                 lane_rx[(n*6+p)*66*LANES+:66*LANES]};
          assign lane_tx[(n*6+p)*66*LANES+:66*LANES] = {66*LANES{1'b0}};
          assign lane_slip[(n*6+p)*LANES+:LANES] = {LANES{1'b0}};
          assign link_up[n*6+p] = 1'b0;
          assign link_state[(n*6+p)*2+:2] = 2'd0;
          assign link_counters[(n*6+p)*512+:512] = 512'd0;
          assign link_dead[n*6+p] = 1'b0;
          assign r_out_credit_valid[n*7+p]      = 1'b0;
          assign r_out_credit_vc[(n*7+p)*2+:2]  = 2'b00;
          assign r_in_valid[n*7+p]              = 1'b0;
          assign r_in_flit[(n*7+p)*68+:68]      = 68'd0;
        end
      end
    end
  endgenerate
endmodule
`default_nettype wire
