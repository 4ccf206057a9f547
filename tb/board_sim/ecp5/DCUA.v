`default_nettype none
// DCUA (simulation model) - an ECP5-5G DCU (TX PLL and two SERDES channels)
// as kolo_ecp5_dcu configures it, behavioural, for the board-level
// simulation (tb/board_sim, docs/boards.md "Board-level simulation").
// Not for synthesis.
// Modelled: raw 20-bit mode only ("10BSER", encoder, decoder and clock
// compensation bypassed, 1:2 gearing: the configuration is checked at
// start and anything else stops the simulation); the TX PLL: D_FFS_PLOL
// falls PLL_LOCK_EDGES reference edges after D_FFC_TRST, D_FFC_DUAL_RST and
// D_FFC_MACRO_RST are all low; the channels' FF_TX_PCLK = line rate / 20 =
// D_REFCLKI * REFCK_MULT / 20 (REFCK_MULT 10: the reference halved; 20: the
// reference itself; other multipliers are not modelled), running only while
// the PLL is locked; FF_RX_PCLK, the recovered clock, is the inverted
// transmit clock (the harness runs both boards' references at one
// frequency, so no frequency offset is modelled, only a phase). The
// channels: kolo_sim_dcu_ch (words through the harness's cables). HDOUTP is
// high while the transmitter sends (for a waveform); the serial pins carry
// no data.
module DCUA #(
    parameter D_REFCK_MODE = "0b001",
    parameter CH0_PROTOCOL = "10BSER", CH1_PROTOCOL = "10BSER",
    parameter CH0_ENC_BYPASS = "0b1", CH1_ENC_BYPASS = "0b1",
    parameter CH0_DEC_BYPASS = "0b1", CH1_DEC_BYPASS = "0b1",
    parameter CH0_CTC_BYPASS = "0b1", CH1_CTC_BYPASS = "0b1",
    parameter CH0_RX_GEAR_MODE = "0b1", CH1_RX_GEAR_MODE = "0b1",
    parameter CH0_TX_GEAR_MODE = "0b1", CH1_TX_GEAR_MODE = "0b1",
    parameter D_MACROPDB = "", D_IB_PWDNB = "", D_TXPLL_PWDNB = "", D_TX_MAX_RATE = "",
    parameter D_TX_VCO_CK_DIV = "", D_BITCLK_LOCAL_EN = "", D_CMUSETBIASI = "", D_CMUSETI4CPP = "",
    parameter D_CMUSETI4CPZ = "", D_CMUSETI4VCO = "", D_CMUSETICP4P = "", D_CMUSETICP4Z = "",
    parameter D_CMUSETINITVCT = "", D_CMUSETISCL4VCO = "", D_CMUSETP1GM = "", D_CMUSETP2AGM = "",
    parameter D_CMUSETZGM = "", D_SETIRPOLY_AUX = "", D_SETICONST_AUX = "", D_SETIRPOLY_CH = "",
    parameter D_SETICONST_CH = "", D_SETPLLRC = "", D_RG_EN = "", D_RG_SET = "",
    parameter D_REQ_ISET = "", D_PD_ISET = "", D_LOW_MARK = "", D_HIGH_MARK = "",
    parameter CH0_UC_MODE = "", CH1_UC_MODE = "", CH0_ENABLE_CG_ALIGN = "", CH1_ENABLE_CG_ALIGN = "",
    parameter CH0_RPWDNB = "", CH1_RPWDNB = "", CH0_REQ_EN = "", CH1_REQ_EN = "",
    parameter CH0_RX_RATE_SEL = "", CH1_RX_RATE_SEL = "", CH0_RTERM_RX = "", CH1_RTERM_RX = "",
    parameter CH0_RXIN_CM = "", CH1_RXIN_CM = "", CH0_RXTERM_CM = "", CH1_RXTERM_CM = "",
    parameter CH0_CDR_MAX_RATE = "", CH1_CDR_MAX_RATE = "", CH0_RX_DCO_CK_DIV = "", CH1_RX_DCO_CK_DIV = "",
    parameter CH0_FF_RX_H_CLK_EN = "", CH1_FF_RX_H_CLK_EN = "", CH0_FF_RX_F_CLK_DIS = "", CH1_FF_RX_F_CLK_DIS = "",
    parameter CH0_SEL_SD_RX_CLK = "", CH1_SEL_SD_RX_CLK = "", CH0_AUTO_FACQ_EN = "", CH1_AUTO_FACQ_EN = "",
    parameter CH0_AUTO_CALIB_EN = "", CH1_AUTO_CALIB_EN = "", CH0_PDEN_SEL = "", CH1_PDEN_SEL = "",
    parameter CH0_DCOATDCFG = "", CH1_DCOATDCFG = "", CH0_DCOATDDLY = "", CH1_DCOATDDLY = "",
    parameter CH0_DCOBYPSATD = "", CH1_DCOBYPSATD = "", CH0_DCOCALDIV = "", CH1_DCOCALDIV = "",
    parameter CH0_DCOCTLGI = "", CH1_DCOCTLGI = "", CH0_DCODISBDAVOID = "", CH1_DCODISBDAVOID = "",
    parameter CH0_DCOFLTDAC = "", CH1_DCOFLTDAC = "", CH0_DCOFTNRG = "", CH1_DCOFTNRG = "",
    parameter CH0_DCOIOSTUNE = "", CH1_DCOIOSTUNE = "", CH0_DCOITUNE = "", CH1_DCOITUNE = "",
    parameter CH0_DCOITUNE4LSB = "", CH1_DCOITUNE4LSB = "", CH0_DCOIUPDNX2 = "", CH1_DCOIUPDNX2 = "",
    parameter CH0_DCONUOFLSB = "", CH1_DCONUOFLSB = "", CH0_DCOSCALEI = "", CH1_DCOSCALEI = "",
    parameter CH0_DCOSTARTVAL = "", CH1_DCOSTARTVAL = "", CH0_DCOSTEP = "", CH1_DCOSTEP = "",
    parameter CH0_RLOS_SEL = "", CH1_RLOS_SEL = "", CH0_RX_LOS_EN = "", CH1_RX_LOS_EN = "",
    parameter CH0_RX_LOS_LVL = "", CH1_RX_LOS_LVL = "", CH0_RX_LOS_CEQ = "", CH1_RX_LOS_CEQ = "",
    parameter CH0_TPWDNB = "", CH1_TPWDNB = "", CH0_TXAMPLITUDE = "", CH1_TXAMPLITUDE = "",
    parameter CH0_RTERM_TX = "", CH1_RTERM_TX = "", CH0_TDRV_SLICE0_CUR = "", CH1_TDRV_SLICE0_CUR = "",
    parameter CH0_TDRV_SLICE0_SEL = "", CH1_TDRV_SLICE0_SEL = "", CH0_TDRV_SLICE1_CUR = "", CH1_TDRV_SLICE1_CUR = "",
    parameter CH0_TDRV_SLICE1_SEL = "", CH1_TDRV_SLICE1_SEL = "", CH0_TDRV_SLICE2_CUR = "", CH1_TDRV_SLICE2_CUR = "",
    parameter CH0_TDRV_SLICE2_SEL = "", CH1_TDRV_SLICE2_SEL = "", CH0_TDRV_SLICE3_CUR = "", CH1_TDRV_SLICE3_CUR = "",
    parameter CH0_TDRV_SLICE3_SEL = "", CH1_TDRV_SLICE3_SEL = "", CH0_TDRV_SLICE4_CUR = "", CH1_TDRV_SLICE4_CUR = "",
    parameter CH0_TDRV_SLICE4_SEL = "", CH1_TDRV_SLICE4_SEL = "", CH0_TDRV_SLICE5_CUR = "", CH1_TDRV_SLICE5_CUR = "",
    parameter CH0_TDRV_SLICE5_SEL = "", CH1_TDRV_SLICE5_SEL = "", CH0_FF_TX_H_CLK_EN = "", CH1_FF_TX_H_CLK_EN = "",
    parameter CH0_FF_TX_F_CLK_DIS = "", CH1_FF_TX_F_CLK_DIS = "",
    parameter PLL_LOCK_EDGES = 256       // model only: reference edges to TX PLL lock
) (
    input  wire D_FFC_MACROPDB, D_FFC_MACRO_RST, D_FFC_DUAL_RST, D_FFC_TRST, D_REFCLKI,
    output wire D_FFS_PLOL,
    input  wire CH0_HDINP, CH0_HDINN,
    output wire CH0_HDOUTP, CH0_HDOUTN,
    input  wire CH0_RX_REFCLK, CH0_FFC_RXPWDNB, CH0_FFC_TXPWDNB, CH0_FFC_RRST,
    input  wire CH0_FFC_LANE_RX_RST, CH0_FFC_LANE_TX_RST, CH0_FFC_SIGNAL_DETECT, CH0_FFC_FB_LOOPBACK,
    output wire CH0_FF_TX_PCLK, CH0_FF_RX_PCLK,
    input  wire CH0_FF_TXI_CLK, CH0_FF_RXI_CLK,
    output wire CH0_FFS_RLOL, CH0_FFS_RLOS,
    input  wire CH0_FF_TX_D_0, CH0_FF_TX_D_1, CH0_FF_TX_D_2, CH0_FF_TX_D_3, CH0_FF_TX_D_4, CH0_FF_TX_D_5, CH0_FF_TX_D_6, CH0_FF_TX_D_7, CH0_FF_TX_D_8, CH0_FF_TX_D_9, CH0_FF_TX_D_10, CH0_FF_TX_D_11,
    input  wire CH0_FF_TX_D_12, CH0_FF_TX_D_13, CH0_FF_TX_D_14, CH0_FF_TX_D_15, CH0_FF_TX_D_16, CH0_FF_TX_D_17, CH0_FF_TX_D_18, CH0_FF_TX_D_19, CH0_FF_TX_D_20, CH0_FF_TX_D_21, CH0_FF_TX_D_22, CH0_FF_TX_D_23,
    output wire CH0_FF_RX_D_0, CH0_FF_RX_D_1, CH0_FF_RX_D_2, CH0_FF_RX_D_3, CH0_FF_RX_D_4, CH0_FF_RX_D_5, CH0_FF_RX_D_6, CH0_FF_RX_D_7, CH0_FF_RX_D_8, CH0_FF_RX_D_9, CH0_FF_RX_D_10, CH0_FF_RX_D_11,
    output wire CH0_FF_RX_D_12, CH0_FF_RX_D_13, CH0_FF_RX_D_14, CH0_FF_RX_D_15, CH0_FF_RX_D_16, CH0_FF_RX_D_17, CH0_FF_RX_D_18, CH0_FF_RX_D_19, CH0_FF_RX_D_20, CH0_FF_RX_D_21, CH0_FF_RX_D_22, CH0_FF_RX_D_23,
    input  wire CH1_HDINP, CH1_HDINN,
    output wire CH1_HDOUTP, CH1_HDOUTN,
    input  wire CH1_RX_REFCLK, CH1_FFC_RXPWDNB, CH1_FFC_TXPWDNB, CH1_FFC_RRST,
    input  wire CH1_FFC_LANE_RX_RST, CH1_FFC_LANE_TX_RST, CH1_FFC_SIGNAL_DETECT, CH1_FFC_FB_LOOPBACK,
    output wire CH1_FF_TX_PCLK, CH1_FF_RX_PCLK,
    input  wire CH1_FF_TXI_CLK, CH1_FF_RXI_CLK,
    output wire CH1_FFS_RLOL, CH1_FFS_RLOS,
    input  wire CH1_FF_TX_D_0, CH1_FF_TX_D_1, CH1_FF_TX_D_2, CH1_FF_TX_D_3, CH1_FF_TX_D_4, CH1_FF_TX_D_5, CH1_FF_TX_D_6, CH1_FF_TX_D_7, CH1_FF_TX_D_8, CH1_FF_TX_D_9, CH1_FF_TX_D_10, CH1_FF_TX_D_11,
    input  wire CH1_FF_TX_D_12, CH1_FF_TX_D_13, CH1_FF_TX_D_14, CH1_FF_TX_D_15, CH1_FF_TX_D_16, CH1_FF_TX_D_17, CH1_FF_TX_D_18, CH1_FF_TX_D_19, CH1_FF_TX_D_20, CH1_FF_TX_D_21, CH1_FF_TX_D_22, CH1_FF_TX_D_23,
    output wire CH1_FF_RX_D_0, CH1_FF_RX_D_1, CH1_FF_RX_D_2, CH1_FF_RX_D_3, CH1_FF_RX_D_4, CH1_FF_RX_D_5, CH1_FF_RX_D_6, CH1_FF_RX_D_7, CH1_FF_RX_D_8, CH1_FF_RX_D_9, CH1_FF_RX_D_10, CH1_FF_RX_D_11,
    output wire CH1_FF_RX_D_12, CH1_FF_RX_D_13, CH1_FF_RX_D_14, CH1_FF_RX_D_15, CH1_FF_RX_D_16, CH1_FF_RX_D_17, CH1_FF_RX_D_18, CH1_FF_RX_D_19, CH1_FF_RX_D_20, CH1_FF_RX_D_21, CH1_FF_RX_D_22, CH1_FF_RX_D_23
);
  initial begin
    if (D_REFCK_MODE != "0b001" && D_REFCK_MODE != "0b000") begin
      $display("DCUA model %m: only REFCK_MULT 10 and 20 (D_REFCK_MODE 0b001, 0b000) are modelled");
      $fatal;
    end
    if (CH0_PROTOCOL != "10BSER" || CH1_PROTOCOL != "10BSER" || CH0_ENC_BYPASS != "0b1" ||
        CH1_ENC_BYPASS != "0b1" || CH0_DEC_BYPASS != "0b1" || CH1_DEC_BYPASS != "0b1" ||
        CH0_CTC_BYPASS != "0b1" || CH1_CTC_BYPASS != "0b1" || CH0_RX_GEAR_MODE != "0b1" ||
        CH1_RX_GEAR_MODE != "0b1" || CH0_TX_GEAR_MODE != "0b1" || CH1_TX_GEAR_MODE != "0b1") begin
      $display("DCUA model %m: only raw 20-bit mode (10BSER, PCS bypassed, 1:2 gearing) is modelled");
      $fatal;
    end
  end

  // ---- TX PLL and the transmit clock ----
  wire    dcu_rst = D_FFC_MACRO_RST || D_FFC_DUAL_RST || !D_FFC_MACROPDB;
  integer ref_edges;
  reg     plol, tx_clk;
  initial begin
    plol = 1'b1;
    tx_clk = 1'b0;
    ref_edges = 0;
  end
  always @(posedge D_REFCLKI) begin
    if (dcu_rst || D_FFC_TRST) ref_edges <= 0;
    else if (ref_edges < PLL_LOCK_EDGES) ref_edges <= ref_edges + 1;
    plol <= dcu_rst || D_FFC_TRST || ref_edges < PLL_LOCK_EDGES;
  end
  generate
    if (D_REFCK_MODE == "0b001") begin : g_mult10   // line / 20 = reference / 2
      always @(posedge D_REFCLKI) tx_clk <= !plol && !tx_clk;
    end else begin : g_mult20                       // line / 20 = reference
      always @* tx_clk = !plol && D_REFCLKI;
    end
  endgenerate
  wire rx_clk = !plol && !tx_clk;
  assign D_FFS_PLOL = plol;

  // ---- channel 0 ----
  wire [23:0] tx_bus0 = {CH0_FF_TX_D_23, CH0_FF_TX_D_22, CH0_FF_TX_D_21, CH0_FF_TX_D_20, CH0_FF_TX_D_19, CH0_FF_TX_D_18, CH0_FF_TX_D_17, CH0_FF_TX_D_16, CH0_FF_TX_D_15, CH0_FF_TX_D_14, CH0_FF_TX_D_13, CH0_FF_TX_D_12, CH0_FF_TX_D_11, CH0_FF_TX_D_10, CH0_FF_TX_D_9, CH0_FF_TX_D_8, CH0_FF_TX_D_7, CH0_FF_TX_D_6, CH0_FF_TX_D_5, CH0_FF_TX_D_4, CH0_FF_TX_D_3, CH0_FF_TX_D_2, CH0_FF_TX_D_1, CH0_FF_TX_D_0};
  wire [23:0] rx_bus0;
  assign {CH0_FF_RX_D_23, CH0_FF_RX_D_22, CH0_FF_RX_D_21, CH0_FF_RX_D_20, CH0_FF_RX_D_19, CH0_FF_RX_D_18, CH0_FF_RX_D_17, CH0_FF_RX_D_16, CH0_FF_RX_D_15, CH0_FF_RX_D_14, CH0_FF_RX_D_13, CH0_FF_RX_D_12, CH0_FF_RX_D_11, CH0_FF_RX_D_10, CH0_FF_RX_D_9, CH0_FF_RX_D_8, CH0_FF_RX_D_7, CH0_FF_RX_D_6, CH0_FF_RX_D_5, CH0_FF_RX_D_4, CH0_FF_RX_D_3, CH0_FF_RX_D_2, CH0_FF_RX_D_1, CH0_FF_RX_D_0} = rx_bus0;
  kolo_sim_dcu_ch u_ch0 (
      .tx_clk(tx_clk), .rx_clk(rx_clk), .pll_ok(!plol), .lane_tx_rst(CH0_FFC_LANE_TX_RST || !CH0_FFC_TXPWDNB),
      .rx_ser_rst(CH0_FFC_RRST || !CH0_FFC_RXPWDNB || dcu_rst), .lane_rx_rst(CH0_FFC_LANE_RX_RST),
      .loopback(CH0_FFC_FB_LOOPBACK), .tx_bus(tx_bus0), .rx_bus(rx_bus0), .rlol(CH0_FFS_RLOL),
      .rlos(CH0_FFS_RLOS)
  );
  assign CH0_FF_TX_PCLK = tx_clk;
  assign CH0_FF_RX_PCLK = rx_clk;
  assign CH0_HDOUTP = !plol && !CH0_FFC_LANE_TX_RST;
  assign CH0_HDOUTN = !CH0_HDOUTP;
  wire unused0 = &{1'b0, CH0_HDINP, CH0_HDINN, CH0_RX_REFCLK, CH0_FFC_SIGNAL_DETECT, CH0_FF_TXI_CLK,
                    CH0_FF_RXI_CLK, tx_bus0[23:22], tx_bus0[11:10]};

  // ---- channel 1 ----
  wire [23:0] tx_bus1 = {CH1_FF_TX_D_23, CH1_FF_TX_D_22, CH1_FF_TX_D_21, CH1_FF_TX_D_20, CH1_FF_TX_D_19, CH1_FF_TX_D_18, CH1_FF_TX_D_17, CH1_FF_TX_D_16, CH1_FF_TX_D_15, CH1_FF_TX_D_14, CH1_FF_TX_D_13, CH1_FF_TX_D_12, CH1_FF_TX_D_11, CH1_FF_TX_D_10, CH1_FF_TX_D_9, CH1_FF_TX_D_8, CH1_FF_TX_D_7, CH1_FF_TX_D_6, CH1_FF_TX_D_5, CH1_FF_TX_D_4, CH1_FF_TX_D_3, CH1_FF_TX_D_2, CH1_FF_TX_D_1, CH1_FF_TX_D_0};
  wire [23:0] rx_bus1;
  assign {CH1_FF_RX_D_23, CH1_FF_RX_D_22, CH1_FF_RX_D_21, CH1_FF_RX_D_20, CH1_FF_RX_D_19, CH1_FF_RX_D_18, CH1_FF_RX_D_17, CH1_FF_RX_D_16, CH1_FF_RX_D_15, CH1_FF_RX_D_14, CH1_FF_RX_D_13, CH1_FF_RX_D_12, CH1_FF_RX_D_11, CH1_FF_RX_D_10, CH1_FF_RX_D_9, CH1_FF_RX_D_8, CH1_FF_RX_D_7, CH1_FF_RX_D_6, CH1_FF_RX_D_5, CH1_FF_RX_D_4, CH1_FF_RX_D_3, CH1_FF_RX_D_2, CH1_FF_RX_D_1, CH1_FF_RX_D_0} = rx_bus1;
  kolo_sim_dcu_ch u_ch1 (
      .tx_clk(tx_clk), .rx_clk(rx_clk), .pll_ok(!plol), .lane_tx_rst(CH1_FFC_LANE_TX_RST || !CH1_FFC_TXPWDNB),
      .rx_ser_rst(CH1_FFC_RRST || !CH1_FFC_RXPWDNB || dcu_rst), .lane_rx_rst(CH1_FFC_LANE_RX_RST),
      .loopback(CH1_FFC_FB_LOOPBACK), .tx_bus(tx_bus1), .rx_bus(rx_bus1), .rlol(CH1_FFS_RLOL),
      .rlos(CH1_FFS_RLOS)
  );
  assign CH1_FF_TX_PCLK = tx_clk;
  assign CH1_FF_RX_PCLK = rx_clk;
  assign CH1_HDOUTP = !plol && !CH1_FFC_LANE_TX_RST;
  assign CH1_HDOUTN = !CH1_HDOUTP;
  wire unused1 = &{1'b0, CH1_HDINP, CH1_HDINN, CH1_RX_REFCLK, CH1_FFC_SIGNAL_DETECT, CH1_FF_TXI_CLK,
                    CH1_FF_RXI_CLK, tx_bus1[23:22], tx_bus1[11:10]};
endmodule
`default_nettype wire
