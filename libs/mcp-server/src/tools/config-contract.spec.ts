import { describe, expect, it } from 'vitest';
import { z } from 'zod/v3';
import { RAG_SECTION_SCHEMAS, RAG_SECTIONS } from '@trove/rag-config';
import { zodContractShape } from '@trove/testing';
import { configOutput } from '../output-schemas';
import { ragSettingsInput } from './config.tools';

describe('get_config and set_config, against the settings schemas', () => {
  it('name exactly the settings of each section, in the output and the input', () => {
    for (const section of RAG_SECTIONS) {
      const settings = zodContractShape(RAG_SECTION_SCHEMAS[section], false);
      expect({ section, output: zodContractShape(configOutput[section], false) }).toEqual({
        section,
        output: settings,
      });
      expect({ section, input: zodContractShape(ragSettingsInput[section], false) }).toEqual({
        section,
        input: settings,
      });
    }
    expect(Object.keys(z.object(ragSettingsInput).shape).sort()).toEqual([...RAG_SECTIONS, 'reset'].sort());
  });
});
