/**
 * The page sweep at a tablet's and desktops' widths, 768, 1296 and 1920 px (test/support/sweep-suite.ts): layout,
 * 跳到正文, the accessibility tree, the Tab walk and axe by day and by night, on one visit per page and width.
 */
import { describeSweep } from '../support/sweep-suite';

describeSweep([768, 1296, 1920]);
