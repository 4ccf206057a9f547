`default_nettype none
// kolo_ecp5_dcu - one ECP5-5G DCU (two SERDES channels) as two raw lanes
// for kolo: the PCS is bypassed (no 8b10b, no word alignment, no clock
// tolerance compensation: "10BSER" protocol with the encoder and decoder
// bypassed), 20 bits per cycle each way (1:2 gearing, the half-rate FPGA
// clocks FF_TX_PCLK / FF_RX_PCLK at line rate / 20). The 64b/66b gearboxes
// (kolo_soft_gearbox_tx/rx) and the link live in fabric.
//
// Line rate: the DCU's TX PLL multiplies refclk by REFCK_MULT (8, 10, 16, 20
// or 25; 25 only with a 100 MHz reference); the line rate is refclk *
// REFCK_MULT (no output division). ECP5-5G (LFE5UM5G): up to 5 Gb/s.
// Reference: refclk from fabric (a PLL output; the board's default) or the
// DCU's dedicated EXTREF pins through EXTREFB (REFCLK_EXT = 1, the
// refclk_p/refclk_n ports); the fabric clock is jittery but enough for
// short SMA cables at 2-2.5 Gb/s.
// Reset sequencing (per DCU, the order TN1261 gives): power up, reset the
// DCU and both channels while the reference settles (RESET_CYCLES of clk),
// release the TX PLL (D_FFC_TRST) and wait for its lock (D_FFS_PLOL low),
// release the receivers (CHx_FFC_RRST) and wait for CDR lock (CHx_FFS_RLOL
// low and no loss of signal), then the PCS lanes (CHx_FFC_LANE_TX/RX_RST).
// A lost TX PLL lock starts over; a channel that loses CDR lock or signal
// goes back to its receiver reset alone. tx_ready / rx_ready[ch] say a
// channel's side is out of reset (in the clk domain; the board crosses them
// into the lane clocks through kolo_chip's lane reset inputs).
// Loopback (per channel, level, clk domain): near-end PCS loopback for
// LINK_CTRL.LOOPBACK (CHx_FFC_FB_LOOPBACK).
// Location: the DCU site by LOC ("DCU0" or "DCU1"); the HDINP/N, HDOUTP/N
// pins are the DCU's dedicated pins (not placed by the LPF).
module kolo_ecp5_dcu #(
    parameter LOC           = "DCU0",
    parameter REFCK_MULT    = 20,
    parameter REFCLK_EXT    = 0,
    parameter RESET_CYCLES  = 4096,   // clk cycles of reset before the TX PLL is released
    parameter LOCK_CYCLES   = 65536   // clk cycles a lock must last before the next step
) (
    input  wire        clk,          // free-running control clock
    input  wire        rst,          // synchronous to clk, active high
    input  wire        refclk,       // REFCLK_EXT = 0: the reference from fabric
    input  wire        refclk_p,     // REFCLK_EXT = 1: EXTREF pins
    input  wire        refclk_n,
    // serial pins (dedicated)
    input  wire [1:0]  hdin_p,
    input  wire [1:0]  hdin_n,
    output wire [1:0]  hdout_p,
    output wire [1:0]  hdout_n,
    // channel ch: 20 bits per cycle of its clocks, bit 0 first
    output wire [1:0]  tx_clk,       // FF_TX_PCLK (line rate / 20)
    input  wire [39:0] tx_bits,      // [20ch +: 20], in tx_clk[ch]
    output wire [1:0]  rx_clk,       // FF_RX_PCLK: the recovered clock (line rate / 20)
    output wire [39:0] rx_bits,      // [20ch +: 20], in rx_clk[ch]
    input  wire [1:0]  loopback,     // clk domain
    output reg         tx_ready,     // clk domain: the TX PLL is locked, the lanes out of reset
    output reg  [1:0]  rx_ready      // clk domain: channel ch receives (CDR locked, signal)
);
  generate
    if (REFCK_MULT != 8 && REFCK_MULT != 10 && REFCK_MULT != 16 && REFCK_MULT != 20 &&
        REFCK_MULT != 25) begin : g_bad_mult
      kolo_ecp5_dcu_PARAMETER_ERROR_REFCK_MULT_8_10_16_20_25 u_error ();
    end
  endgenerate
  // D_REFCK_MODE encodes the TX PLL multiplier
  localparam REFCK_MODE = REFCK_MULT == 25 ? "0b100" : REFCK_MULT == 20 ? "0b000" :
                          REFCK_MULT == 16 ? "0b010" : REFCK_MULT == 10 ? "0b001" : "0b011";

  // ---- reference clock ---------------------------------------------------------------------
  wire ref_in;
  generate
    if (REFCLK_EXT != 0) begin : g_extref
      (* LOC = (LOC == "DCU0") ? "EXTREF0" : "EXTREF1" *)
      EXTREFB #(.REFCK_PWDNB("0b1"), .REFCK_RTERM("0b1"), .REFCK_DCBIAS_EN("0b0")) u_extref (
          .REFCLKP(refclk_p), .REFCLKN(refclk_n), .REFCLKO(ref_in));
      wire unused_ref = refclk;
    end else begin : g_fabric_ref
      assign ref_in = refclk;
      wire unused_ref = &{1'b0, refclk_p, refclk_n};
    end
  endgenerate

  // ---- reset sequencing (clk) -----------------------------------------------------------------
  wire       pll_lol;          // D_FFS_PLOL: TX PLL loss of lock
  wire [1:0] rx_lol, rx_los;   // CHx_FFS_RLOL, CHx_FFS_RLOS
  // the DCU's status outputs are asynchronous to clk
  (* ASYNC_REG = "TRUE" *) reg [4:0] st_s1, st_s2;
  always @(posedge clk) begin
    st_s1 <= {rx_los, rx_lol, pll_lol};
    st_s2 <= st_s1;
  end
  wire       s_pll_lol = st_s2[0];
  wire [1:0] s_rx_lol = st_s2[2:1];
  wire [1:0] s_rx_los = st_s2[4:3];

  localparam D_RESET = 2'd0, D_PLL = 2'd1, D_RUN = 2'd2;
  reg [1:0]  ds;
  reg [31:0] dcnt;
  reg        dual_rst, tx_pll_rst, tx_lane_rst;
  reg [1:0]  rx_ser_rst, rx_lane_rst;
  reg [31:0] rcnt0, rcnt1;
  always @(posedge clk) begin
    if (rst) begin
      ds <= D_RESET;
      dcnt <= 32'd0;
      dual_rst <= 1'b1;
      tx_pll_rst <= 1'b1;
      tx_lane_rst <= 1'b1;
      tx_ready <= 1'b0;
    end else begin
      case (ds)
        D_RESET: begin
          dual_rst <= 1'b1;
          tx_pll_rst <= 1'b1;
          tx_lane_rst <= 1'b1;
          tx_ready <= 1'b0;
          dcnt <= dcnt + 32'd1;
          if (dcnt >= RESET_CYCLES) begin
            ds <= D_PLL;
            dcnt <= 32'd0;
            dual_rst <= 1'b0;
            tx_pll_rst <= 1'b0;
          end
        end
        D_PLL: begin
          dcnt <= s_pll_lol ? 32'd0 : dcnt + 32'd1;
          if (dcnt >= LOCK_CYCLES) begin
            ds <= D_RUN;
            tx_lane_rst <= 1'b0;
            tx_ready <= 1'b1;
          end
        end
        default: if (s_pll_lol) begin  // D_RUN: lost lock: start over
          ds <= D_RESET;
          dcnt <= 32'd0;
        end
      endcase
    end
  end
  // per channel: receiver reset until the TX PLL runs and the CDR has locked
  // to a signal for LOCK_CYCLES
  always @(posedge clk) begin
    if (rst || ds != D_RUN) begin
      rx_ser_rst <= 2'b11;
      rx_lane_rst <= 2'b11;
      rx_ready <= 2'b00;
      rcnt0 <= 32'd0;
      rcnt1 <= 32'd0;
    end else begin
      rx_ser_rst <= 2'b00;
      rcnt0 <= (s_rx_lol[0] || s_rx_los[0]) ? 32'd0 : (rcnt0 >= LOCK_CYCLES ? rcnt0 : rcnt0 + 32'd1);
      rcnt1 <= (s_rx_lol[1] || s_rx_los[1]) ? 32'd0 : (rcnt1 >= LOCK_CYCLES ? rcnt1 : rcnt1 + 32'd1);
      rx_lane_rst[0] <= rcnt0 < LOCK_CYCLES;
      rx_lane_rst[1] <= rcnt1 < LOCK_CYCLES;
      rx_ready[0] <= rcnt0 >= LOCK_CYCLES;
      rx_ready[1] <= rcnt1 >= LOCK_CYCLES;
    end
  end

  // ---- the DCU -----------------------------------------------------------------------------
  // Fabric data bus per channel: 24 bits, two 10-bit words at [9:0] and [21:12]
  wire [23:0] tx_bus0 = {2'b00, tx_bits[19:10], 2'b00, tx_bits[9:0]};
  wire [23:0] tx_bus1 = {2'b00, tx_bits[39:30], 2'b00, tx_bits[29:20]};
  wire [23:0] rx_bus0, rx_bus1;
  assign rx_bits = {rx_bus1[21:12], rx_bus1[9:0], rx_bus0[21:12], rx_bus0[9:0]};

  (* LOC = LOC *)
  DCUA #(
      // DCU: power, TX PLL
      .D_MACROPDB("0b1"), .D_IB_PWDNB("0b1"), .D_TXPLL_PWDNB("0b1"),
      .D_REFCK_MODE(REFCK_MODE), .D_TX_MAX_RATE("5.0"), .D_TX_VCO_CK_DIV("0b000"),
      .D_BITCLK_LOCAL_EN("0b1"),
      // DCU: TX PLL loop settings (the values of Lattice's raw 10-bit mode configuration)
      .D_CMUSETBIASI("0b00"), .D_CMUSETI4CPP("0d3"), .D_CMUSETI4CPZ("0d3"), .D_CMUSETI4VCO("0b00"),
      .D_CMUSETICP4P("0b01"), .D_CMUSETICP4Z("0b101"), .D_CMUSETINITVCT("0b00"),
      .D_CMUSETISCL4VCO("0b000"), .D_CMUSETP1GM("0b000"), .D_CMUSETP2AGM("0b000"),
      .D_CMUSETZGM("0b000"), .D_SETIRPOLY_AUX("0b01"), .D_SETICONST_AUX("0b01"),
      .D_SETIRPOLY_CH("0b01"), .D_SETICONST_CH("0b10"), .D_SETPLLRC("0d1"), .D_RG_EN("0b0"),
      .D_RG_SET("0b00"), .D_REQ_ISET("0b011"), .D_PD_ISET("0b11"),
      .D_LOW_MARK("0d4"), .D_HIGH_MARK("0d12"),
      // both channels: raw 10-bit words, PCS bypassed
      .CH0_PROTOCOL("10BSER"), .CH1_PROTOCOL("10BSER"),
      .CH0_UC_MODE("0b1"), .CH1_UC_MODE("0b1"),
      .CH0_ENC_BYPASS("0b1"), .CH1_ENC_BYPASS("0b1"),
      .CH0_DEC_BYPASS("0b1"), .CH1_DEC_BYPASS("0b1"),
      .CH0_ENABLE_CG_ALIGN("0b0"), .CH1_ENABLE_CG_ALIGN("0b0"),   // no comma alignment: kolo slips
      .CH0_CTC_BYPASS("0b1"), .CH1_CTC_BYPASS("0b1"),
      // receivers
      .CH0_RPWDNB("0b1"), .CH1_RPWDNB("0b1"),
      .CH0_REQ_EN("0b0"), .CH1_REQ_EN("0b0"), .CH0_RX_RATE_SEL("0d10"), .CH1_RX_RATE_SEL("0d10"),
      .CH0_RTERM_RX("0d19"), .CH1_RTERM_RX("0d19"),          // 50 ohms
      .CH0_RXIN_CM("0b11"), .CH1_RXIN_CM("0b11"), .CH0_RXTERM_CM("0b11"), .CH1_RXTERM_CM("0b11"),
      .CH0_CDR_MAX_RATE("5.0"), .CH1_CDR_MAX_RATE("5.0"),
      .CH0_RX_DCO_CK_DIV("0b000"), .CH1_RX_DCO_CK_DIV("0b000"),
      .CH0_RX_GEAR_MODE("0b1"), .CH1_RX_GEAR_MODE("0b1"),      // 1:2, 20 bits
      .CH0_FF_RX_H_CLK_EN("0b1"), .CH1_FF_RX_H_CLK_EN("0b1"),
      .CH0_FF_RX_F_CLK_DIS("0b1"), .CH1_FF_RX_F_CLK_DIS("0b1"),
      .CH0_SEL_SD_RX_CLK("0b1"), .CH1_SEL_SD_RX_CLK("0b1"),
      .CH0_AUTO_FACQ_EN("0b1"), .CH1_AUTO_FACQ_EN("0b1"),
      .CH0_AUTO_CALIB_EN("0b1"), .CH1_AUTO_CALIB_EN("0b1"),
      .CH0_PDEN_SEL("0b1"), .CH1_PDEN_SEL("0b1"),
      .CH0_DCOATDCFG("0b00"), .CH1_DCOATDCFG("0b00"), .CH0_DCOATDDLY("0b00"), .CH1_DCOATDDLY("0b00"),
      .CH0_DCOBYPSATD("0b1"), .CH1_DCOBYPSATD("0b1"), .CH0_DCOCALDIV("0b000"), .CH1_DCOCALDIV("0b000"),
      .CH0_DCOCTLGI("0b011"), .CH1_DCOCTLGI("0b011"), .CH0_DCODISBDAVOID("0b0"),
      .CH1_DCODISBDAVOID("0b0"), .CH0_DCOFLTDAC("0b00"), .CH1_DCOFLTDAC("0b00"),
      .CH0_DCOFTNRG("0b001"), .CH1_DCOFTNRG("0b001"), .CH0_DCOIOSTUNE("0b010"),
      .CH1_DCOIOSTUNE("0b010"), .CH0_DCOITUNE("0b00"), .CH1_DCOITUNE("0b00"),
      .CH0_DCOITUNE4LSB("0b010"), .CH1_DCOITUNE4LSB("0b010"), .CH0_DCOIUPDNX2("0b1"),
      .CH1_DCOIUPDNX2("0b1"), .CH0_DCONUOFLSB("0b100"), .CH1_DCONUOFLSB("0b100"),
      .CH0_DCOSCALEI("0b01"), .CH1_DCOSCALEI("0b01"), .CH0_DCOSTARTVAL("0b010"),
      .CH1_DCOSTARTVAL("0b010"), .CH0_DCOSTEP("0b11"), .CH1_DCOSTEP("0b11"),
      .CH0_RLOS_SEL("0b1"), .CH1_RLOS_SEL("0b1"), .CH0_RX_LOS_EN("0b1"), .CH1_RX_LOS_EN("0b1"),
      .CH0_RX_LOS_LVL("0b100"), .CH1_RX_LOS_LVL("0b100"), .CH0_RX_LOS_CEQ("0b11"),
      .CH1_RX_LOS_CEQ("0b11"),
      // transmitters: 50 ohms, main-cursor drive only
      .CH0_TPWDNB("0b1"), .CH1_TPWDNB("0b1"),
      .CH0_TXAMPLITUDE("0d1000"), .CH1_TXAMPLITUDE("0d1000"),
      .CH0_RTERM_TX("0d19"), .CH1_RTERM_TX("0d19"),
      .CH0_TDRV_SLICE0_CUR("0b011"), .CH1_TDRV_SLICE0_CUR("0b011"),
      .CH0_TDRV_SLICE0_SEL("0b01"), .CH1_TDRV_SLICE0_SEL("0b01"),
      .CH0_TDRV_SLICE1_CUR("0b000"), .CH1_TDRV_SLICE1_CUR("0b000"),
      .CH0_TDRV_SLICE1_SEL("0b00"), .CH1_TDRV_SLICE1_SEL("0b00"),
      .CH0_TDRV_SLICE2_CUR("0b11"), .CH1_TDRV_SLICE2_CUR("0b11"),
      .CH0_TDRV_SLICE2_SEL("0b01"), .CH1_TDRV_SLICE2_SEL("0b01"),
      .CH0_TDRV_SLICE3_CUR("0b10"), .CH1_TDRV_SLICE3_CUR("0b10"),
      .CH0_TDRV_SLICE3_SEL("0b01"), .CH1_TDRV_SLICE3_SEL("0b01"),
      .CH0_TDRV_SLICE4_CUR("0b00"), .CH1_TDRV_SLICE4_CUR("0b00"),
      .CH0_TDRV_SLICE4_SEL("0b00"), .CH1_TDRV_SLICE4_SEL("0b00"),
      .CH0_TDRV_SLICE5_CUR("0b00"), .CH1_TDRV_SLICE5_CUR("0b00"),
      .CH0_TDRV_SLICE5_SEL("0b00"), .CH1_TDRV_SLICE5_SEL("0b00"),
      .CH0_TX_GEAR_MODE("0b1"), .CH1_TX_GEAR_MODE("0b1"),      // 1:2, 20 bits
      .CH0_FF_TX_H_CLK_EN("0b1"), .CH1_FF_TX_H_CLK_EN("0b1"),
      .CH0_FF_TX_F_CLK_DIS("0b1"), .CH1_FF_TX_F_CLK_DIS("0b1")
  ) u_dcu (
      // DCU
      .D_FFC_MACROPDB(1'b1), .D_FFC_MACRO_RST(dual_rst), .D_FFC_DUAL_RST(dual_rst),
      .D_FFC_TRST(tx_pll_rst), .D_REFCLKI(ref_in), .D_FFS_PLOL(pll_lol),
      // channel 0
      .CH0_HDINP(hdin_p[0]), .CH0_HDINN(hdin_n[0]), .CH0_HDOUTP(hdout_p[0]), .CH0_HDOUTN(hdout_n[0]),
      .CH0_RX_REFCLK(ref_in), .CH0_FFC_RXPWDNB(1'b1), .CH0_FFC_TXPWDNB(1'b1),
      .CH0_FFC_RRST(rx_ser_rst[0]), .CH0_FFC_LANE_RX_RST(rx_lane_rst[0]),
      .CH0_FFC_LANE_TX_RST(tx_lane_rst), .CH0_FFC_SIGNAL_DETECT(1'b0),
      .CH0_FFC_FB_LOOPBACK(loopback[0]),
      .CH0_FF_TX_PCLK(tx_clk[0]), .CH0_FF_TXI_CLK(tx_clk[0]),
      .CH0_FF_RX_PCLK(rx_clk[0]), .CH0_FF_RXI_CLK(rx_clk[0]),
      .CH0_FFS_RLOL(rx_lol[0]), .CH0_FFS_RLOS(rx_los[0]),
      .CH0_FF_TX_D_0(tx_bus0[0]), .CH0_FF_TX_D_1(tx_bus0[1]), .CH0_FF_TX_D_2(tx_bus0[2]),
      .CH0_FF_TX_D_3(tx_bus0[3]), .CH0_FF_TX_D_4(tx_bus0[4]), .CH0_FF_TX_D_5(tx_bus0[5]),
      .CH0_FF_TX_D_6(tx_bus0[6]), .CH0_FF_TX_D_7(tx_bus0[7]), .CH0_FF_TX_D_8(tx_bus0[8]),
      .CH0_FF_TX_D_9(tx_bus0[9]), .CH0_FF_TX_D_10(tx_bus0[10]), .CH0_FF_TX_D_11(tx_bus0[11]),
      .CH0_FF_TX_D_12(tx_bus0[12]), .CH0_FF_TX_D_13(tx_bus0[13]), .CH0_FF_TX_D_14(tx_bus0[14]),
      .CH0_FF_TX_D_15(tx_bus0[15]), .CH0_FF_TX_D_16(tx_bus0[16]), .CH0_FF_TX_D_17(tx_bus0[17]),
      .CH0_FF_TX_D_18(tx_bus0[18]), .CH0_FF_TX_D_19(tx_bus0[19]), .CH0_FF_TX_D_20(tx_bus0[20]),
      .CH0_FF_TX_D_21(tx_bus0[21]), .CH0_FF_TX_D_22(tx_bus0[22]), .CH0_FF_TX_D_23(tx_bus0[23]),
      .CH0_FF_RX_D_0(rx_bus0[0]), .CH0_FF_RX_D_1(rx_bus0[1]), .CH0_FF_RX_D_2(rx_bus0[2]),
      .CH0_FF_RX_D_3(rx_bus0[3]), .CH0_FF_RX_D_4(rx_bus0[4]), .CH0_FF_RX_D_5(rx_bus0[5]),
      .CH0_FF_RX_D_6(rx_bus0[6]), .CH0_FF_RX_D_7(rx_bus0[7]), .CH0_FF_RX_D_8(rx_bus0[8]),
      .CH0_FF_RX_D_9(rx_bus0[9]), .CH0_FF_RX_D_10(rx_bus0[10]), .CH0_FF_RX_D_11(rx_bus0[11]),
      .CH0_FF_RX_D_12(rx_bus0[12]), .CH0_FF_RX_D_13(rx_bus0[13]), .CH0_FF_RX_D_14(rx_bus0[14]),
      .CH0_FF_RX_D_15(rx_bus0[15]), .CH0_FF_RX_D_16(rx_bus0[16]), .CH0_FF_RX_D_17(rx_bus0[17]),
      .CH0_FF_RX_D_18(rx_bus0[18]), .CH0_FF_RX_D_19(rx_bus0[19]), .CH0_FF_RX_D_20(rx_bus0[20]),
      .CH0_FF_RX_D_21(rx_bus0[21]), .CH0_FF_RX_D_22(rx_bus0[22]), .CH0_FF_RX_D_23(rx_bus0[23]),
      // channel 1
      .CH1_HDINP(hdin_p[1]), .CH1_HDINN(hdin_n[1]), .CH1_HDOUTP(hdout_p[1]), .CH1_HDOUTN(hdout_n[1]),
      .CH1_RX_REFCLK(ref_in), .CH1_FFC_RXPWDNB(1'b1), .CH1_FFC_TXPWDNB(1'b1),
      .CH1_FFC_RRST(rx_ser_rst[1]), .CH1_FFC_LANE_RX_RST(rx_lane_rst[1]),
      .CH1_FFC_LANE_TX_RST(tx_lane_rst), .CH1_FFC_SIGNAL_DETECT(1'b0),
      .CH1_FFC_FB_LOOPBACK(loopback[1]),
      .CH1_FF_TX_PCLK(tx_clk[1]), .CH1_FF_TXI_CLK(tx_clk[1]),
      .CH1_FF_RX_PCLK(rx_clk[1]), .CH1_FF_RXI_CLK(rx_clk[1]),
      .CH1_FFS_RLOL(rx_lol[1]), .CH1_FFS_RLOS(rx_los[1]),
      .CH1_FF_TX_D_0(tx_bus1[0]), .CH1_FF_TX_D_1(tx_bus1[1]), .CH1_FF_TX_D_2(tx_bus1[2]),
      .CH1_FF_TX_D_3(tx_bus1[3]), .CH1_FF_TX_D_4(tx_bus1[4]), .CH1_FF_TX_D_5(tx_bus1[5]),
      .CH1_FF_TX_D_6(tx_bus1[6]), .CH1_FF_TX_D_7(tx_bus1[7]), .CH1_FF_TX_D_8(tx_bus1[8]),
      .CH1_FF_TX_D_9(tx_bus1[9]), .CH1_FF_TX_D_10(tx_bus1[10]), .CH1_FF_TX_D_11(tx_bus1[11]),
      .CH1_FF_TX_D_12(tx_bus1[12]), .CH1_FF_TX_D_13(tx_bus1[13]), .CH1_FF_TX_D_14(tx_bus1[14]),
      .CH1_FF_TX_D_15(tx_bus1[15]), .CH1_FF_TX_D_16(tx_bus1[16]), .CH1_FF_TX_D_17(tx_bus1[17]),
      .CH1_FF_TX_D_18(tx_bus1[18]), .CH1_FF_TX_D_19(tx_bus1[19]), .CH1_FF_TX_D_20(tx_bus1[20]),
      .CH1_FF_TX_D_21(tx_bus1[21]), .CH1_FF_TX_D_22(tx_bus1[22]), .CH1_FF_TX_D_23(tx_bus1[23]),
      .CH1_FF_RX_D_0(rx_bus1[0]), .CH1_FF_RX_D_1(rx_bus1[1]), .CH1_FF_RX_D_2(rx_bus1[2]),
      .CH1_FF_RX_D_3(rx_bus1[3]), .CH1_FF_RX_D_4(rx_bus1[4]), .CH1_FF_RX_D_5(rx_bus1[5]),
      .CH1_FF_RX_D_6(rx_bus1[6]), .CH1_FF_RX_D_7(rx_bus1[7]), .CH1_FF_RX_D_8(rx_bus1[8]),
      .CH1_FF_RX_D_9(rx_bus1[9]), .CH1_FF_RX_D_10(rx_bus1[10]), .CH1_FF_RX_D_11(rx_bus1[11]),
      .CH1_FF_RX_D_12(rx_bus1[12]), .CH1_FF_RX_D_13(rx_bus1[13]), .CH1_FF_RX_D_14(rx_bus1[14]),
      .CH1_FF_RX_D_15(rx_bus1[15]), .CH1_FF_RX_D_16(rx_bus1[16]), .CH1_FF_RX_D_17(rx_bus1[17]),
      .CH1_FF_RX_D_18(rx_bus1[18]), .CH1_FF_RX_D_19(rx_bus1[19]), .CH1_FF_RX_D_20(rx_bus1[20]),
      .CH1_FF_RX_D_21(rx_bus1[21]), .CH1_FF_RX_D_22(rx_bus1[22]), .CH1_FF_RX_D_23(rx_bus1[23])
  );
  wire unused = &{1'b0, rx_bus0[23:22], rx_bus0[11:10], rx_bus1[23:22], rx_bus1[11:10]};
endmodule
`default_nettype wire
