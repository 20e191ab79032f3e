import type { AnswerLanguage } from './text';

/** The fixed texts of answers the LLM did not write, in the question's language. */
export interface FallbackMessages {
  /** INSUFFICIENT_CONTEXT: nothing relevant enough, or the model said the passages do not answer. */
  insufficientContext: string;
  /** TOP_1: heads the best passage, labelled as a quote so nobody mistakes it for a written answer. */
  top1: string;
  /**
   * EXTRACTIVE: heads the quoted sentences, labelled as quotes. It does not say "no answer": the
   * quotes usually are the answer.
   */
  extractive: string;
  /** EXTRACTIVE in place of the configured model's answer (late, failed or unsupported): heads the quotes. */
  modelFallback: string;
}

export const FALLBACK_MESSAGES: Record<AnswerLanguage, FallbackMessages> = {
  en: {
    insufficientContext: 'The knowledge base does not hold enough information to answer this question.',
    top1: 'Quoted as it is from the most relevant passage (no language model wrote this answer):',
    extractive: 'Quoted from your documents (no language model wrote this answer):',
    modelFallback:
      'The language model gave no answer that the sources support. Sentences quoted from the most relevant passages:',
  },
  ru: {
    insufficientContext: 'В базе знаний недостаточно информации, чтобы ответить на этот вопрос.',
    top1: 'Дословно из самого релевантного фрагмента (ответ написан не языковой моделью):',
    extractive: 'Цитаты из ваших документов (ответ написан не языковой моделью):',
    modelFallback:
      'Языковая модель не дала ответа, который подтверждают источники. Предложения, процитированные из самых релевантных фрагментов:',
  },
  zh: {
    insufficientContext: '知识库中没有足够的信息来回答这个问题。',
    top1: '最相关段落的原文（此回答并非由语言模型撰写）：',
    extractive: '引自您的文档（此回答并非由语言模型撰写）：',
    modelFallback: '语言模型未给出有来源支持的回答。以下句子摘自最相关的段落：',
  },
};
