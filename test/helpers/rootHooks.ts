// Root hooks of every run (.mocharc.json requires this file).
import { removeTempDirs } from './tempDirs.ts';

export const mochaHooks = {
  afterAll(): void {
    removeTempDirs();
  },
};
