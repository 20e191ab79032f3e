import type { AnswerLanguage } from './text';

/** The fixed texts of answers the LLM did not write, in the question's language. */
export interface FallbackMessages {
  /** INSUFFICIENT_CONTEXT: nothing relevant enough, or the model said the passages do not answer. */
  insufficientContext: string;
  /** TOP_1: heads the best passage, so nobody mistakes it for a written answer. */
  top1: string;
  /** EXTRACTIVE: heads the quoted sentences. */
  extractive: string;
  /** EXTRACTIVE in place of the configured model's answer (late, failed or unsupported): heads the quotes. */
  modelFallback: string;
}

export const FALLBACK_MESSAGES: Record<AnswerLanguage, FallbackMessages> = {
  en: {
    insufficientContext: 'The knowledge base does not hold enough information to answer this question.',
    top1: 'No answer was generated. The most relevant passage:',
    extractive: 'No answer was generated. Sentences quoted from the most relevant passages:',
    modelFallback:
      'The language model gave no verified answer in time. Sentences quoted from the most relevant passages:',
  },
  ru: {
    insufficientContext: 'В базе знаний недостаточно информации, чтобы ответить на этот вопрос.',
    top1: 'Ответ не сгенерирован. Самый релевантный фрагмент:',
    extractive: 'Ответ не сгенерирован. Предложения, процитированные из самых релевантных фрагментов:',
    modelFallback:
      'Языковая модель не дала проверенного ответа вовремя. Предложения, процитированные из самых релевантных фрагментов:',
  },
  zh: {
    insufficientContext: '知识库中没有足够的信息来回答这个问题。',
    top1: '未生成回答。最相关的段落：',
    extractive: '未生成回答。以下句子摘自最相关的段落：',
    modelFallback: '语言模型未能及时给出经过验证的回答。以下句子摘自最相关的段落：',
  },
};
